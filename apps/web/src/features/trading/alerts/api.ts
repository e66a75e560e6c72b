import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertRequest, AlertResponse, AlertsResponse, MessageResponse, ServerEvents } from '@platform/domain';
import { apiDelete, apiGet, apiPost, apiPut } from '../../../api/client.ts';
import { useRealtimeEvent } from '../../../api/realtime.ts';

/** Under 'trading' with the rest of the terminal's session data (cleared with it). */
export const alertKeys = { all: ['trading', 'alerts'] as const };

export type AlertsChangedEvent = Parameters<ServerEvents['alertsChanged']>[0];

/** The client's price alerts (active first, then the latest fired), reloaded whenever the server says they changed. */
export function useAlerts() {
  const client = useQueryClient();
  // Fired by the server, or changed in another tab or device.
  useRealtimeEvent<AlertsChangedEvent>('alertsChanged', () => {
    void client.invalidateQueries({ queryKey: alertKeys.all });
  });
  return useQuery({
    queryKey: alertKeys.all,
    queryFn: async () => (await apiGet<AlertsResponse>('/dashboard/alerts')).data,
  });
}

/** Creates an alert, or replaces the definition of `id` (which re-arms it when it had fired). */
export function useSaveAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AlertRequest }) =>
      id === null
        ? apiPost<AlertResponse>('/dashboard/alerts', body)
        : apiPut<AlertResponse>(`/dashboard/alerts/${id}`, body),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export function useDeleteAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiDelete<MessageResponse>(`/dashboard/alerts/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
