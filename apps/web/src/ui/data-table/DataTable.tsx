import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Group,
  LoadingOverlay,
  Pagination,
  Paper,
  Select,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconDownload, IconSearch, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { pageCount } from '@platform/domain';
import { apiUrl, errorMessage } from '../../api/client.ts';
import {
  defaultRowKey,
  nextServerSort,
  sortRows,
  scrollBoxStyle,
  stickyActionsStyle,
  stickyMessageStyle,
  type DataTableColumn,
  type RowKey,
  type ServerSort,
  type SortState,
} from './cells.ts';
import { DataCards } from './DataCards.tsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import { isActionsColumn as isActions, tableIdOf, useColumnChoice } from './columnChoice.ts';
import { DataCell } from './DataCell.tsx';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, usePagedList, type ListFilters } from './usePagedList.ts';
import { PHONE_QUERY } from '../responsive-list/ResponsiveList.tsx';

/** Search waits for the user to stop typing before asking the server (spec §9). */
export const SEARCH_DEBOUNCE_MS = 1500;

export interface DataTableSelection {
  selected: readonly RowKey[];
  onChange: (keys: RowKey[]) => void;
}

export interface DataTableProps<T> {
  /** Server list url under /api; GET {url}?page&limit&search&...filters. */
  url: string;
  columns: readonly DataTableColumn<T>[];
  /** Extra query parameters; changing them goes back to page 1. */
  filters?: ListFilters;
  /** Some screens (history tabs, trades) have no search box. */
  searchable?: boolean;
  /** Checkboxes per row for bulk actions; the screen owns the selected keys. */
  selection?: DataTableSelection;
  rowKey?: (row: T) => RowKey;
  /** Controls shown beside the search box (add-new, bulk buttons, filters). */
  toolbar?: ReactNode;
  searchPlaceholder?: string;
  /** Offers "Export CSV": every row matching the current search and filters, streamed by the server. */
  exportable?: boolean;
  /**
   * Offers "Columns", a chooser to hide and show columns (columns marked `hidden` start hidden), remembered per
   * table. Default: on for tables of five columns or more, or with a column hidden by default.
   */
  columnChooser?: boolean;
  /** Which table the column choice is remembered for; default: the url without its ids. */
  tableId?: string;
  /** Told the loaded page's rows whenever they change (e.g. to follow live figures of what is on screen). */
  onRowsChange?: (rows: readonly T[]) => void;
  /**
   * Reload the page on screen this often (ms) while the browser tab is visible, without the loading veil; only the
   * rows whose data changed are drawn again.
   */
  refreshMs?: number;
  /**
   * The server's sort of the list (columns with `serverSort`), sent as `sort` and `dir`; the screen owns it so other
   * controls can set it too. Without `onServerSortChange` those columns are not sortable.
   */
  serverSort?: ServerSort | null;
  onServerSortChange?: (sort: ServerSort | null) => void;
  /** On a phone, one card a row with what `card` draws (the terminal's responsive list pattern) instead of the table. */
  card?: (row: T) => ReactNode;
}

/** The list table every back-office screen uses (back-office spec §2 "Generic data table"). */
export function DataTable<T>({
  url,
  columns,
  filters,
  searchable = true,
  selection,
  rowKey = defaultRowKey,
  toolbar,
  searchPlaceholder,
  exportable = false,
  columnChooser,
  tableId,
  onRowsChange,
  refreshMs,
  serverSort,
  onServerSortChange,
  card,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const chosen = useColumnChoice(tableId ?? tableIdOf(url), columns);
  const shown = chosen.visible;
  const withChooser = columnChooser ?? (columns.length >= 5 || columns.some((c) => c.hidden));
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState<SortState>(null);
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });

  // The server's sort travels with the filters: a new sort is a new list, from its first page.
  const query = useMemo(
    () => (serverSort ? { ...filters, sort: serverSort.key, dir: serverSort.dir } : filters),
    [filters, serverSort],
  );
  // New filters mean a new list: start again from its first page.
  const filtersKey = JSON.stringify(query ?? {});
  const [seenFilters, setSeenFilters] = useState(filtersKey);
  if (seenFilters !== filtersKey) {
    setSeenFilters(filtersKey);
    setPage(1);
  }

  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value.trim());
    setPage(1);
  }, SEARCH_DEBOUNCE_MS);

  const list = usePagedList<T>({
    url,
    page,
    limit,
    search: search || undefined,
    filters: query,
    refetchInterval: refreshMs,
  });
  const pages = pageCount(list.total, list.perPage);

  // A delete can empty the last page; step back to the last page that still exists.
  useEffect(() => {
    if (!list.isFetching && page > pages) setPage(pages);
  }, [list.isFetching, page, pages]);

  const rows = useMemo(() => sortRows(list.rows, columns, sort), [list.rows, columns, sort]);
  useEffect(() => {
    onRowsChange?.(list.rows);
  }, [list.rows, onRowsChange]);
  const keys = rows.map(rowKey);
  const selected = new Set(selection?.selected ?? []);
  const allSelected = keys.length > 0 && keys.every((k) => selected.has(k));
  const someSelected = keys.some((k) => selected.has(k));

  const toggleSort = (key: string) =>
    setSort((s) =>
      s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' },
    );

  const toggleAll = () => {
    if (!selection) return;
    const others = selection.selected.filter((k) => !keys.includes(k));
    selection.onChange(allSelected ? others : [...others, ...keys]);
  };
  const toggleRow = (key: RowKey) => {
    if (!selection) return;
    selection.onChange(selected.has(key) ? selection.selected.filter((k) => k !== key) : [...selection.selected, key]);
  };
  // One function for every render, so a row whose data did not change is not drawn again (refreshing lists).
  const toggleRef = useRef(toggleRow);
  useEffect(() => {
    toggleRef.current = toggleRow;
  });
  const onToggleRow = useCallback((key: RowKey) => toggleRef.current(key), []);

  const colSpan = shown.length + (selection ? 1 : 0);
  const message = (text: string, color?: string) => (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text ta="center" c={color ?? 'dimmed'} py="lg" style={stickyMessageStyle}>
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );

  let body: ReactNode;
  if (list.isLoading) body = message(t('Loading...'));
  else if (list.isError) body = message(errorMessage(list.error, t('Something went wrong')), 'red');
  else if (rows.length === 0) body = message(t('No data found'));
  else
    body = rows.map((row, i) => (
      <DataRow<T>
        key={String(keys[i])}
        row={row}
        rowKey={keys[i]}
        columns={shown}
        selectable={selection !== undefined}
        selected={selected.has(keys[i])}
        onToggle={onToggleRow}
      />
    ));

  return (
    <Paper withBorder p="md" radius="md" pos="relative">
      {(searchable || toolbar || exportable || withChooser) && (
        <Group justify="space-between" mb="md" gap="sm">
          {searchable ? (
            <TextInput
              aria-label={t('Search')}
              placeholder={searchPlaceholder ?? t('Search...')}
              leftSection={<IconSearch size={16} />}
              value={searchInput}
              onChange={(e) => {
                setSearchInput(e.currentTarget.value);
                applySearch(e.currentTarget.value);
              }}
              w={{ base: '100%', sm: 280 }}
            />
          ) : (
            <span />
          )}
          {(toolbar || exportable || withChooser) && (
            <Group gap="xs">
              {toolbar}
              {withChooser && (
                <ColumnChooser
                  columns={columns}
                  choice={chosen.choice}
                  onToggle={chosen.toggle}
                  onReset={chosen.reset}
                  customised={chosen.customised}
                />
              )}
              {exportable && (
                <Button
                  component="a"
                  href={apiUrl(url, { search: search || undefined, ...query, format: 'csv' })}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} />}
                >
                  {t('Export CSV')}
                </Button>
              )}
            </Group>
          )}
        </Group>
      )}
      <LoadingOverlay
        // A list refreshing itself keeps its rows on screen; only a new page or filter is veiled.
        visible={list.isFetching && !list.isLoading && (refreshMs === undefined || list.isPlaceholderData)}
        overlayProps={{ blur: 1 }}
        loaderProps={{ size: 'sm' }}
      />
      {card && phone ? (
        <DataCards
          rows={rows}
          rowKey={rowKey}
          card={card}
          selection={selection}
          empty={
            list.isLoading
              ? t('Loading...')
              : list.isError
                ? errorMessage(list.error, t('Something went wrong'))
                : t('No data found')
          }
          onToggle={onToggleRow}
        />
      ) : (
        <Table.ScrollContainer minWidth={Math.max(600, shown.length * 100)} style={scrollBoxStyle}>
          <Table striped highlightOnHover verticalSpacing="sm" horizontalSpacing={8}>
            <Table.Thead>
              <Table.Tr>
                {selection && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('Select all')}
                      checked={allSelected}
                      indeterminate={someSelected && !allSelected}
                      onChange={toggleAll}
                    />
                  </Table.Th>
                )}
                {shown.map((c) => (
                  <Table.Th key={c.key} w={c.width} style={isActions(c) ? stickyActionsStyle : undefined}>
                    {c.serverSort && onServerSortChange ? (
                      <SortButton
                        label={c.label}
                        state={serverSort?.key === c.serverSort ? serverSort.dir : null}
                        onClick={() => onServerSortChange(nextServerSort(serverSort ?? null, c.serverSort!))}
                      />
                    ) : c.sortable && !c.serverSort ? (
                      <SortButton
                        label={c.label}
                        state={sort?.key === c.key ? sort.direction : null}
                        onClick={() => toggleSort(c.key)}
                      />
                    ) : (
                      c.label
                    )}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{body}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" mt="md" gap="sm">
        <Group gap="sm">
          <Text size="sm" c="dimmed" data-testid="table-total">
            {t('Total')}: {list.totalCapped ? `${list.total.toLocaleString('en-US')}+` : list.total}
          </Text>
          <Select
            aria-label={t('Rows per page')}
            data={PAGE_SIZES.map(String)}
            value={String(limit)}
            allowDeselect={false}
            onChange={(v) => {
              setLimit(Number(v ?? DEFAULT_PAGE_SIZE));
              setPage(1);
            }}
            w={80}
            size="xs"
          />
          <Text size="sm" c="dimmed">
            {t('Rows per page')}
          </Text>
        </Group>
        <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" aria-label={t('Pages')} />
      </Group>
    </Paper>
  );
}

interface DataRowProps<T> {
  row: T;
  rowKey: RowKey;
  columns: readonly DataTableColumn<T>[];
  selectable: boolean;
  selected: boolean;
  onToggle: (key: RowKey) => void;
}

function DataRowOf<T>({ row, rowKey, columns, selectable, selected, onToggle }: DataRowProps<T>) {
  const { t } = useTranslation();
  return (
    <Table.Tr bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
      {selectable && (
        <Table.Td w={40}>
          <Checkbox aria-label={t('Select row')} checked={selected} onChange={() => onToggle(rowKey)} />
        </Table.Td>
      )}
      {columns.map((c) => (
        <Table.Td key={c.key} style={isActions(c) ? stickyActionsStyle : undefined}>
          <DataCell row={row} column={c} />
        </Table.Td>
      ))}
    </Table.Tr>
  );
}

/** A body row, drawn again only when its row, its columns or its selection change. */
const DataRow = memo(DataRowOf) as typeof DataRowOf;

function SortButton({ label, state, onClick }: { label: string; state: 'asc' | 'desc' | null; onClick: () => void }) {
  const Icon = state === 'asc' ? IconChevronUp : state === 'desc' ? IconChevronDown : IconSelector;
  return (
    <UnstyledButton onClick={onClick} fw={700} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      {label}
      <Icon size={14} />
    </UnstyledButton>
  );
}
