import type { ReactNode } from 'react';
import { formatDateTime } from '@platform/domain';

export type RowKey = string | number;

/** One column of a DataTable. `label` is shown as given (translate it at the call site). */
export interface DataTableColumn<T> {
  /** Field of the row (dot paths such as 'user.email' reach nested objects). */
  key: string;
  label: string;
  /** Custom cell; returning null, undefined or '' shows '-'. */
  render?: (row: T) => ReactNode;
  /** Sorts the loaded page only (spec §2), on `sortValue` or else the raw field. */
  sortable?: boolean;
  /**
   * Sorted by the server instead, on this key of the list's `sort` parameter (figures a page alone cannot order, such
   * as a customer's equity among 100,000): the table then asks for the sort with `sort` and `dir`.
   */
  serverSort?: string;
  sortValue?: (row: T) => string | number | boolean | null | undefined;
  /** 'date' formats the raw field as DD/MM/YYYY h:mm A. */
  type?: 'date';
  /** A date drawn on two lines, the day above the time: a narrow column where a list has many. */
  stacked?: boolean;
  width?: number | string;
  /** Keep the column at the right edge while the table scrolls sideways (default for the `actions` column). */
  sticky?: boolean;
  /** A secondary column: hidden until the user shows it with the table's column chooser. */
  hidden?: boolean;
  /**
   * Widest the cell grows (px) before its text is cut with an ellipsis, the whole text shown on hover. Default
   * CELL_MAX_WIDTH; `false` never cuts (the default for the actions and status columns, whose chips and buttons
   * must show whole).
   */
  truncate?: number | false;
}

/** How wide a cell grows by default before its text is cut (an email of some 30 characters fits). */
export const CELL_MAX_WIDTH = 180;

/** The width a column's cells are cut at, or null when they are never cut. */
export function truncateWidth<T>(column: DataTableColumn<T>): number | null {
  if (column.truncate === false || column.stacked) return null;
  if (column.truncate !== undefined) return column.truncate;
  if (column.sticky || column.key === 'actions' || column.key === 'status') return null;
  return CELL_MAX_WIDTH;
}

export type SortState = { key: string; direction: 'asc' | 'desc' } | null;

/** A sort the server applies: its `sort` key and direction (`dir`). */
export type ServerSort = { key: string; dir: 'asc' | 'desc' };

/** A server-sorted column's next sort on a click: largest first, then smallest first, then the list's own order. */
export function nextServerSort(current: ServerSort | null, key: string): ServerSort | null {
  if (current?.key !== key) return { key, dir: 'desc' };
  return current.dir === 'desc' ? { key, dir: 'asc' } : null;
}

export const EMPTY_CELL = '-';

export function readPath(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/** The content of one cell, with '-' for anything empty so no cell is left blank (spec §2). */
export function cellContent<T>(row: T, column: DataTableColumn<T>): ReactNode {
  if (column.render) {
    const rendered = column.render(row);
    return rendered === null || rendered === undefined || rendered === '' ? EMPTY_CELL : rendered;
  }
  const raw = readPath(row, column.key);
  if (column.type === 'date') {
    const text = formatDateTime(isBlank(raw) ? null : (raw as string));
    return column.stacked && !isBlank(raw) ? text.replace(' ', '\n') : text;
  }
  if (isBlank(raw)) return EMPTY_CELL;
  if (typeof raw === 'object') return EMPTY_CELL;
  return String(raw);
}

function comparable(value: unknown): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const text = String(value);
  // Numeric strings (money comes as decimal strings) sort as numbers.
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text.toLowerCase();
}

/** Sorts a copy of the loaded rows; blanks go last in either direction. */
export function sortRows<T>(rows: readonly T[], columns: readonly DataTableColumn<T>[], sort: SortState): T[] {
  if (!sort) return [...rows];
  const column = columns.find((c) => c.key === sort.key);
  if (!column) return [...rows];
  const sortKeyOf = (row: T) => comparable(column.sortValue ? column.sortValue(row) : readPath(row, column.key));
  const factor = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortKeyOf(a);
    const y = sortKeyOf(b);
    if (x === null) return y === null ? 0 : 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * factor;
    return String(x).localeCompare(String(y)) * factor;
  });
}

/** The identity of a row for selection; rows are expected to carry an `id` unless told otherwise. */
export function defaultRowKey(row: unknown): RowKey {
  const id = readPath(row, 'id');
  return typeof id === 'number' || typeof id === 'string' ? id : JSON.stringify(row);
}

/**
 * A table's scroll box is a size container, so a message row inside it can be exactly as wide as what is visible
 * (stickyMessageStyle), however wide the table.
 */
export const scrollBoxStyle = { containerType: 'inline-size' } as const;

/** An empty-state or message row's text stays in view inside a table wider than its box: pinned to the visible part. */
export const stickyMessageStyle = {
  position: 'sticky',
  left: 0,
  width: 'calc(100cqi - 2 * var(--table-horizontal-spacing, 10px))',
} as const;

/** The ACTIONS column stays visible at the right edge of a table wider than its card. */
export const stickyActionsStyle = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.6)',
} as const;
