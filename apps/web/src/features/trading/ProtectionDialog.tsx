import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  dec,
  GENERIC_ERROR,
  openOrderBounds,
  type MessageResponse,
  type OrderDto,
  type OrderUpdateRequest,
} from '@platform/domain';
import { apiPut } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading } from './api.ts';
import { formatPrice, pairLabel } from './figures.ts';
import { ProtectionField, rateAllowed } from './RateInput.tsx';

/** Which level of an open position the dialog sets: `loss` is the stop-loss, `profit` the take-profit. */
export type ProtectionKind = 'loss' | 'profit';

export interface ProtectionDialogProps {
  order: OrderDto;
  kind: ProtectionKind;
  /** Price digits of the instrument. */
  digits: number;
  onClose: () => void;
}

/**
 * "Set Stop/Loss" and "Set Take/Profit" on an open position (spec §2, §5): bounds around the open rate,
 * initial value the saved level or the open rate; switching it off removes the level (null is sent).
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

  const save = useMutation({
    mutationFn: (body: OrderUpdateRequest) => apiPut<MessageResponse>(`/dashboard/orders/${order.id}`, body),
    onSuccess: () => {
      toastSuccess(kind === 'loss' ? t('Stop Loss Set Successfully') : t('Take Profit Set Successfully'));
      void refreshTrading(client);
      onClose();
    },
    onError: () => toastError(t(GENERIC_ERROR)),
  });
  const level = enabled ? value : null;
  const submit = () => save.mutate(kind === 'loss' ? { loss: level } : { profit: level });

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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={enabled && !rateAllowed(value, bounds)}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
