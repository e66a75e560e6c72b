import { useCallback } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PageMeta } from '@platform/domain';
import { apiGet } from '../../api/client.ts';

/** Rows-per-page choices of every list screen (back-office spec §9); the first is the default. */
export const PAGE_SIZES = [15, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 15;

/** Extra query parameters of a list (status, date range, agent...). Empty values are not sent. */
export type ListFilters = Record<string, string | number | boolean | null | undefined>;

export interface PagedResponse<T> {
  data: T[];
  meta?: Partial<PageMeta>;
}

export interface PagedListParams {
  /** Server list url under /api, e.g. '/admin/users/api'. */
  url: string;
  page: number;
  limit: number;
  search?: string;
  filters?: ListFilters;
  enabled?: boolean;
  /** Reload the page on screen this often (ms) while the browser tab is visible; rows that did not change keep their identity. */
  refetchInterval?: number;
}

/** The rows of a list not loaded yet: one array, so what follows the rows does not see a change on every render. */
const NO_ROWS: never[] = [];

/** Query key prefix of a list url: invalidating it reloads every page and filter of that list. */
export const listQueryKey = (url: string) => ['list', url] as const;

/**
 * One place that reads `{ data, meta }` of a paged list (spec §2 "Generic data table").
 * The previous page stays on screen while the next loads so the table does not flash empty.
 */
export function usePagedList<T>({
  url,
  page,
  limit,
  search,
  filters,
  enabled = true,
  refetchInterval,
}: PagedListParams) {
  const query = useQuery({
    queryKey: [...listQueryKey(url), { page, limit, search: search ?? '', ...filters }],
    queryFn: () => apiGet<PagedResponse<T>>(url, { page, limit, search, ...filters }),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval,
  });
  const meta = query.data?.meta;
  return {
    rows: query.data?.data ?? (NO_ROWS as T[]),
    total: meta?.total ?? query.data?.data.length ?? 0,
    /** The server stopped counting (very long lists): total is "at least", and further pages count further. */
    totalCapped: meta?.total_capped === true,
    // The spec's fallback: 15 per page when the response carries no meta.
    perPage: meta?.per_page ?? DEFAULT_PAGE_SIZE,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    /** The rows on screen are the previous page's or filter's while the asked ones load. */
    isPlaceholderData: query.isPlaceholderData,
    isError: query.isError,
    error: query.error,
  };
}

/** A function that reloads a list after a change (add, edit, delete) without knowing its page or filters. */
export function useRefreshList(url: string): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: listQueryKey(url) }), [client, url]);
}
