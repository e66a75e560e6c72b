import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type BrandingResponse, type CurrentUserResponse, type NotificationDto } from '@platform/domain';
import { ApiError, apiGet, apiPost } from './client.ts';
import { toastError } from '../ui/toast.ts';

export const queryKeys = {
  currentUser: ['auth', 'user'] as const,
  branding: ['settings', 'branding'] as const,
  notifications: ['notifications'] as const,
  countries: ['countries'] as const,
};

/** Client errors (4xx) will not get better by retrying; network and 5xx errors get two more tries. */
const retryUnlessClientError = (count: number, err: unknown) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2;

/** The signed-in user, or null when the session is missing (401). */
export function useCurrentUser() {
  return useQuery<CurrentUserResponse | null>({
    queryKey: queryKeys.currentUser,
    queryFn: async () => {
      try {
        return await apiGet<CurrentUserResponse>('/auth/user');
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    retry: retryUnlessClientError,
    staleTime: 30_000,
  });
}

export function useBranding() {
  return useQuery<BrandingResponse>({
    queryKey: queryKeys.branding,
    queryFn: () => apiGet<BrandingResponse>('/settings/branding'),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });
}

/** Forgets everything tied to the old session, keeping the public branding. */
export function clearSession(queryClient: QueryClient): void {
  queryClient.setQueryData(queryKeys.currentUser, null);
  queryClient.removeQueries({
    predicate: (q) => q.queryKey[0] !== 'settings' && q.queryKey[0] !== 'auth' && q.queryKey[0] !== 'countries',
  });
  // Loaded on demand: the sign-in page does not ship the websocket client.
  void import('./realtime.ts').then((m) => m.disconnectRealtime());
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: () => apiPost<{ message: string }>('/auth/logout'),
    onSuccess: () => {
      void navigate('/', { replace: true });
      clearSession(queryClient);
    },
    onError: () => toastError(t(GENERIC_ERROR)),
  });
}

export interface NotificationsResponse {
  data: NotificationDto[];
  unread: number;
}

export function useNotifications(enabled = true) {
  return useQuery<NotificationsResponse>({
    queryKey: queryKeys.notifications,
    queryFn: () => apiGet<NotificationsResponse>('/notifications'),
    enabled,
    retry: retryUnlessClientError,
  });
}

/** Country names for dropdowns, sorted; a failure shows "Failed to load countries" once. */
export function useCountries() {
  const { t } = useTranslation();
  const query = useQuery<string[]>({
    queryKey: queryKeys.countries,
    queryFn: async () => {
      const rows = await apiGet<Array<{ name: { common: string } }>>('/countries');
      return rows.map((r) => r.name.common).sort((a, b) => a.localeCompare(b));
    },
    staleTime: Infinity,
    retry: retryUnlessClientError,
  });
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toastError(t('Failed to load countries'));
  }, [failedAt, t]);
  return query;
}

/** POST /dashboard/switch-wallet then a full reload, as the spec's wallet switch does (§4). */
export function useSwitchWallet() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (balanceId: number) => apiPost<{ message: string }>('/dashboard/switch-wallet', { balanceId }),
    onSuccess: () => window.location.reload(),
    onError: () => toastError(t(GENERIC_ERROR)),
  });
}
