export { DataTable, SEARCH_DEBOUNCE_MS, type DataTableProps, type DataTableSelection } from './DataTable.tsx';
export { EMPTY_CELL, type DataTableColumn, type RowKey, type ServerSort } from './cells.ts';
export {
  usePagedList,
  useRefreshList,
  listQueryKey,
  PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  type ListFilters,
  type PagedResponse,
} from './usePagedList.ts';
export { ConfirmPopover } from './ConfirmPopover.tsx';
export { StatusChip, OnlineName } from './StatusChip.tsx';
export { AddNewButton, EditDeleteActions } from './RowActions.tsx';
