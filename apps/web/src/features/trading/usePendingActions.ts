import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type MessageResponse, type OcoRequest, type PendingOrderUpdateRequest } from '@platform/domain';
import { apiDelete, apiPost, apiPut, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshPending } from './pendingApi.ts';

/** Modify, cancel and OCO-link pending orders: the server's message on success and on refusal, then a reload. */
export function usePendingActions() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const settle = () => void refreshPending(client);
  const fail = (err: unknown) => toastError(errorMessage(err, t(GENERIC_ERROR)));

  const modify = useMutation({
    mutationFn: ({ id, body }: { id: number; body: PendingOrderUpdateRequest }) =>
      apiPut<Partial<MessageResponse>>(`/dashboard/pending-orders/${id}`, body),
    onSuccess: (answer) => toastSuccess(answer?.message ? t(answer.message) : t('Pending order modified')),
    onError: fail,
    onSettled: settle,
  });
  const cancel = useMutation({
    mutationFn: (id: number) => apiDelete<Partial<MessageResponse>>(`/dashboard/pending-orders/${id}`),
    onSuccess: (answer) => toastSuccess(answer?.message ? t(answer.message) : t('Pending order cancelled')),
    onError: fail,
    onSettled: settle,
  });
  const link = useMutation({
    mutationFn: (body: OcoRequest) => apiPost<Partial<MessageResponse>>('/dashboard/pending-orders/oco', body),
    onSuccess: (answer) =>
      toastSuccess(answer?.message ? t(answer.message) : t('Orders linked: one cancels the other')),
    onError: fail,
    onSettled: settle,
  });
  return { modify, cancel, link };
}
