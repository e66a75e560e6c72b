import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  closePrice,
  dec,
  GENERIC_ERROR,
  openOrderBounds,
  type Decimal,
  type MessageResponse,
  type OrderDto,
  type OrderUpdateRequest,
} from '@platform/domain';
import { apiPut, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading } from './api.ts';
import { formatPrice, pairLabel } from './figures.ts';
import { useQuote } from './quotes.ts';
import { ProtectionField, rateAllowed } from './RateInput.tsx';
import { isDistance, isStep, TrailingStopField, type TrailingValue } from './TrailingStopField.tsx';

/** Which level of an open position the dialog sets: `loss` is the stop-loss, `profit` the take-profit. */
export type ProtectionKind = 'loss' | 'profit';

export interface ProtectionDialogProps {
  order: OrderDto;
  kind: ProtectionKind;
  /** Price digits of the instrument. */
  digits: number;
  onClose: () => void;
}

/** Where a new trailing stop starts: the distance of the current stop-loss from the price, else 0.5% of it. */
function startingTrailing(order: OrderDto, price: Decimal.Value | undefined, digits: number): TrailingValue {
  if (order.trailing_distance !== null)
    return {
      on: true,
      distance: dec(order.trailing_distance).toString(),
      step: dec(order.trailing_step ?? 0).toString(),
    };
  const at = dec(price ?? order.open_rate);
  const distance =
    order.loss !== null && !at.minus(order.loss).isZero() ? at.minus(order.loss).abs() : at.times('0.005');
  return { on: false, distance: distance.toDecimalPlaces(Math.min(digits, 8)).toString(), step: '0' };
}

/**
 * "Set Stop/Loss" and "Set Take/Profit" on an open position (spec §2, §5): bounds around the open rate,
 * initial value the saved level or the open rate; switching it off removes the level (null is sent). The stop-loss
 * dialog also sets or removes the trailing stop; a refused trailing stop shows the server's message.
 */
export function ProtectionDialog({ order, kind, digits, onClose }: ProtectionDialogProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const saved = kind === 'loss' ? order.loss : order.profit;
  const initial = dec(saved ?? order.open_rate);
  const [enabled, setEnabled] = useState(true);
  const [value, setValue] = useState(initial.toFixed(Math.min(5, Math.max(digits, initial.decimalPlaces()))));
  const allBounds = openOrderBounds(order.type, order.open_rate);
  const bounds = kind === 'loss' ? allBounds.stopLoss : allBounds.takeProfit;
  const label = kind === 'loss' ? t('Stop Loss') : t('Take Profit');
  const quote = useQuote(order.instrument);
  const [trailing, setTrailing] = useState<TrailingValue>(() =>
    startingTrailing(order, quote ? closePrice(order.type, quote) : undefined, digits),
  );
  const hadTrailing = order.trailing_distance !== null;
  const trailingChanged =
    kind === 'loss' &&
    (trailing.on !== hadTrailing ||
      (trailing.on &&
        (!isDistance(trailing.distance) ||
          !dec(trailing.distance).equals(order.trailing_distance ?? 0) ||
          !dec(isStep(trailing.step) && trailing.step.trim() !== '' ? trailing.step : 0).equals(
            order.trailing_step ?? 0,
          ))));
  const trailingValid = !trailing.on || (isDistance(trailing.distance) && isStep(trailing.step));

  const save = useMutation({
    mutationFn: (body: OrderUpdateRequest) => apiPut<MessageResponse>(`/dashboard/orders/${order.id}`, body),
    onSuccess: () => {
      toastSuccess(kind === 'loss' ? t('Stop Loss Set Successfully') : t('Take Profit Set Successfully'));
      void refreshTrading(client);
      onClose();
    },
    // A plain level's failure says "Something went wrong" (spec §8); a trailing stop's says why.
    onError: (err, body) =>
      toastError(body.trailing !== undefined ? errorMessage(err, t(GENERIC_ERROR)) : t(GENERIC_ERROR)),
  });
  const level = enabled ? value : null;
  const levelChanged = enabled !== (saved !== null) || (enabled && (saved === null || !dec(value || 0).equals(saved)));
  const submit = () => {
    if (kind === 'profit') return save.mutate({ profit: level });
    if (!trailingChanged) return save.mutate({ loss: level });
    const trail = trailing.on ? { distance: trailing.distance.trim(), step: trailing.step.trim() || '0' } : null;
    // The trailing stop alone leaves the stop-loss as the server has it (it may be moving it).
    save.mutate(levelChanged ? { loss: level, trailing: trail } : { trailing: trail });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      size="sm"
      title={
        <Stack gap={0}>
          <Text fw={700}>{kind === 'loss' ? t('Set Stop/Loss') : t('Set Take/Profit')}</Text>
          <Text size="sm" c="dimmed">
            {pairLabel(order.base_symbol, order.quote_symbol)} · {order.type === 'buy' ? t('Buy') : t('Sell')} ·{' '}
            {t('Open Rate')} {formatPrice(order.open_rate, digits)}
          </Text>
        </Stack>
      }
    >
      <Stack gap="md">
        <ProtectionField
          label={label}
          enabled={enabled}
          onToggle={setEnabled}
          value={value}
          onChange={setValue}
          bounds={bounds}
          digits={digits}
        />
        {kind === 'loss' && <TrailingStopField value={trailing} onChange={setTrailing} quote={order.quote_symbol} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button
            onClick={submit}
            loading={save.isPending}
            disabled={(enabled && !rateAllowed(value, bounds)) || !trailingValid}
          >
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
