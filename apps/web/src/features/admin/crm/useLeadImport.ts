import { useQuery } from '@tanstack/react-query';
import type { LeadImportResponse } from '@platform/domain';
import { apiGet } from '../../../api/client.ts';

/** How often a running import is asked after: a 100,000-row file takes about half a minute. */
export const LEAD_IMPORT_POLL_MS = 1_000;

export const isFinished = (status: LeadImportResponse['status'] | undefined): boolean =>
  status === 'done' || status === 'failed';

/** GET /admin/leads/csv/{id}, asked again every second until the import is done or failed (or cannot be read). */
export function useLeadImport(id: number | null) {
  return useQuery({
    queryKey: ['lead-import', id],
    queryFn: () => apiGet<LeadImportResponse>(`/admin/leads/csv/${id}`),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.status === 'error' || isFinished(query.state.data?.status) ? false : LEAD_IMPORT_POLL_MS,
  });
}
