import { useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dec, GENERIC_ERROR, type InstrumentDto, type MessageResponse } from '@platform/domain';
import { apiPut, errorMessage } from '../../api/client.ts';
import { useCurrentUser } from '../../api/hooks.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading, useOpenOrders } from './api.ts';
import { chartLines, dragPrice, type ChartLine } from './chartLines.ts';
import { refreshPending, usePendingOrders } from './pendingApi.ts';
import { pendingTypeLabel } from './pendingFormat.ts';

/**
 * The chart's lines for one instrument (open positions' entries, SL and TP; pending orders' prices) and what a drop
 * of a dragged line does: the same calls as the dialogs. A refusal shows the server's message and rejects, which
 * puts the line back.
 */
export function useChartOrders(instrument: InstrumentDto) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: current } = useCurrentUser();
  // The positions without their live P/L: the chart need not re-render on every other instrument's tick.
  const open = useOpenOrders(Boolean(current?.activeBalance));
  const pending = usePendingOrders(Boolean(current?.activeBalance));

  const lines = useMemo(
    () =>
      chartLines(instrument.name, open.data ?? [], pending.data ?? [], {
        entry: (o) => `${o.type === 'buy' ? t('BUY') : t('SELL')} ${dec(o.trade_amount).toString()}`,
        loss: (o) => t('SL #{{id}}', { id: o.id }),
        profit: (o) => t('TP #{{id}}', { id: o.id }),
        pending: (p, which) =>
          which === 'price'
            ? `${t(pendingTypeLabel(p))} ${dec(p.amount).toString()}`
            : t('Limit #{{id}}', { id: p.id }),
      }),
    [instrument.name, open.data, pending.data, t],
  );

  const onLineDrop = useCallback(
    async (line: ChartLine, at: number) => {
      const target = line.target;
      if (!target) throw new Error('Not draggable');
      const price = dragPrice(at, instrument.digits);
      try {
        if ('orderId' in target) {
          await apiPut<MessageResponse>(`/dashboard/orders/${target.orderId}`, { [target.kind]: price });
          toastSuccess(target.kind === 'loss' ? t('Stop Loss Set Successfully') : t('Take Profit Set Successfully'));
          void refreshTrading(client);
        } else {
          const answer = await apiPut<Partial<MessageResponse>>(`/dashboard/pending-orders/${target.pendingOrderId}`, {
            [target.kind]: price,
          });
          toastSuccess(answer?.message ? t(answer.message) : t('Pending order modified'));
          void refreshPending(client);
        }
      } catch (err) {
        toastError(errorMessage(err, t(GENERIC_ERROR)));
        throw err;
      }
    },
    [client, instrument.digits, t],
  );

  return { lines, onLineDrop };
}
