import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GENERIC_ERROR,
  type OrderCreateRequest,
  type OrderResponse,
  type PendingOrderResponse,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading } from './api.ts';
import { rememberAmount } from './oneClick.ts';
import { refreshPending } from './pendingApi.ts';

/**
 * POST /dashboard/orders for a market order (the usual "Order Placed Successfully") or a pending one (the server's own
 * message). A refusal shows the server's message as it is. The amount is remembered for one-click trading.
 */
export function usePlaceOrder(onDone?: () => void) {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OrderCreateRequest) => apiPost<OrderResponse | PendingOrderResponse>('/dashboard/orders', body),
    onSuccess: (answer, body) => {
      rememberAmount(body.instrument, String(body.amount));
      if (body.orderType && body.orderType !== 'market') {
        toastSuccess(answer.message ? t(answer.message) : t('Pending order placed'));
        void refreshPending(client);
      } else {
        toastSuccess(t('Order Placed Successfully'));
        void refreshTrading(client);
      }
      onDone?.();
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
  });
}
