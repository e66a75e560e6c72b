import { useCallback, useMemo, useState } from 'react';
import type { DataTableColumn } from './cells.ts';

/** What the choice reads of a column (a data table's, or a terminal list's). */
export type ChoosableColumn = Pick<DataTableColumn<never>, 'key' | 'hidden' | 'sticky'>;

/** The user's own show/hide choices of one table, by column key; a column not in it follows its default. */
export type ColumnChoice = Record<string, boolean>;

const STORAGE_PREFIX = 'table-columns:';

/**
 * Which table a choice belongs to: the list url with its ids taken out, so a customer's history tab remembers one
 * choice for every customer (`/admin/customers/42/deposits` → `/admin/customers/:id/deposits`).
 */
export const tableIdOf = (url: string): string => url.replace(/\/\d+(?=\/|$)/g, '/:id');

/** The actions column (key `actions`, or any column marked sticky) is always shown and stays in view. */
export const isActionsColumn = (c: ChoosableColumn): boolean => c.sticky ?? c.key === 'actions';

/** Columns the chooser offers: every one but the actions column. */
export const isChoosable = (c: ChoosableColumn): boolean => !isActionsColumn(c);

export const isColumnShown = (c: ChoosableColumn, choice: ColumnChoice): boolean =>
  !isChoosable(c) || (choice[c.key] ?? !c.hidden);

function readChoice(tableId: string): ColumnChoice {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_PREFIX + tableId);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as ColumnChoice;
  } catch {
    // Storage refused (private mode, quota) or a value not ours: the defaults apply.
    return {};
  }
}

function writeChoice(tableId: string, choice: ColumnChoice): void {
  try {
    if (Object.keys(choice).length === 0) globalThis.localStorage?.removeItem(STORAGE_PREFIX + tableId);
    else globalThis.localStorage?.setItem(STORAGE_PREFIX + tableId, JSON.stringify(choice));
  } catch {
    // Not remembered this time; the choice still holds while the page is open.
  }
}

/**
 * The columns a table shows: each column's default (`hidden` marks the secondary ones), changed by what the user
 * chose in the column chooser, remembered per table in localStorage.
 */
export function useColumnChoice<C extends ChoosableColumn>(tableId: string, columns: readonly C[]) {
  const [state, setState] = useState(() => ({ tableId, choice: readChoice(tableId) }));
  // Another table in the same component (e.g. trades all → open): its own remembered choice.
  const choice = state.tableId === tableId ? state.choice : readChoice(tableId);
  if (state.tableId !== tableId) setState({ tableId, choice });

  // The actions column stays at the right edge (it is sticky there), whatever a column shown after it in the list.
  const visible = useMemo(() => {
    const shown = columns.filter((c) => isColumnShown(c, choice));
    const last = (c: C) => c.key === 'actions';
    return [...shown.filter((c) => !last(c)), ...shown.filter(last)];
  }, [columns, choice]);

  const toggle = useCallback(
    (column: ChoosableColumn) => {
      const shown = isColumnShown(column, choice);
      const next: ColumnChoice = { ...choice };
      // Back to the default: no longer a choice, so a later change of the default applies.
      if (shown === !column.hidden) next[column.key] = !shown;
      else delete next[column.key];
      writeChoice(tableId, next);
      setState({ tableId, choice: next });
    },
    [choice, tableId],
  );

  const reset = useCallback(() => {
    writeChoice(tableId, {});
    setState({ tableId, choice: {} });
  }, [tableId]);

  return { visible, choice, toggle, reset, customised: Object.keys(choice).length > 0 };
}
