import { useQuery } from '@tanstack/react-query';
import type { SalesStatusItem, SalesStatusListResponse } from '@platform/domain';
import { apiGet } from '../../../api/client.ts';

export const SALES_STATUSES_URL = '/admin/crm-config/sales-statuses/api';

/** Every sales status (spec §9: fetched with page 1 and limit 999), for status filters and pickers. */
export function useSalesStatuses(): SalesStatusItem[] {
  return (
    useQuery({
      queryKey: ['list', SALES_STATUSES_URL, 'all'],
      queryFn: () => apiGet<SalesStatusListResponse>(SALES_STATUSES_URL, { page: 1, limit: 999 }),
      staleTime: 30_000,
    }).data?.data ?? []
  );
}
