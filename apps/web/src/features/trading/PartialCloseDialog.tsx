import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AMOUNT_STEP,
  dec,
  GENERIC_ERROR,
  type MessageResponse,
  type OrderCloseRequest,
  type OrderDto,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading, useLotState } from './api.ts';
import { formatPrice, pairLabel } from './figures.ts';

export interface PartialCloseDialogProps {
  order: OrderDto;
  digits: number;
  onClose: () => void;
}

const isAmount = (s: string) => /^\d*\.?\d+$/.test(s.trim()) && Number(s) > 0;

/**
 * Closes part of a position (or all of it): the amount starts at the whole and goes down to the instrument's smallest
 * size (the smallest lot preset in lot mode, the category's step otherwise). The server realises the part's P/L.
 */
export function PartialCloseDialog({ order, digits, onClose }: PartialCloseDialogProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const lot = useLotState(order.kind, true, order.instrument);
  const whole = dec(order.trade_amount);
  const [amount, setAmount] = useState(whole.toString());
  const smallest =
    lot.data?.lotState === 'lot' && lot.data.lotSelector.length > 0
      ? dec(Math.min(...lot.data.lotSelector.map((o) => o.value)))
      : dec(AMOUNT_STEP[order.kind]);
  const part = isAmount(amount) ? dec(amount) : null;
  const rest = part ? whole.minus(part) : null;
  const problem =
    part === null
      ? t('Enter the amount to close')
      : part.greaterThan(whole)
        ? t('At most the whole position ({{max}})', { max: whole.toString() })
        : part.lessThan(smallest)
          ? t('At least the smallest size ({{min}})', { min: smallest.toString() })
          : null;
  const restHint =
    rest?.greaterThan(0) && rest.lessThan(smallest)
      ? t('What stays open would be below the smallest size ({{min}})', { min: smallest.toString() })
      : null;

  const close = useMutation({
    mutationFn: (body: OrderCloseRequest) => apiPost<Partial<MessageResponse>>('/dashboard/orders/close', body),
    onSuccess: (answer, body) => {
      toastSuccess(
        body.amount === undefined
          ? t('Order Closed Successfully')
          : answer?.message
            ? t(answer.message)
            : t('Part of the position closed'),
      );
      onClose();
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
    onSettled: () => void refreshTrading(client),
  });
  const submit = () =>
    close.mutate({
      orderId: order.id,
      instrument: order.instrument,
      // The whole amount is an ordinary close.
      ...(part?.lessThan(whole) ? { amount: part.toString() } : {}),
    });
  const share = (fraction: number) => {
    const raw = whole.times(fraction);
    // Whole multiples of the smallest size, never under it.
    const steps = raw.div(smallest).floor();
    setAmount(
      dec(steps.lessThan(1) ? 1 : steps)
        .times(smallest)
        .toString(),
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      size="sm"
      title={
        <Stack gap={0}>
          <Text fw={700}>{t('Partial Close')}</Text>
          <Text size="sm" c="dimmed">
            {pairLabel(order.base_symbol, order.quote_symbol)} · {order.type === 'buy' ? t('Buy') : t('Sell')} ·{' '}
            {whole.toString()} @ {formatPrice(order.open_rate, digits)}
          </Text>
        </Stack>
      }
    >
      <Stack gap="md">
        <NumberInput
          label={t('Amount to close')}
          value={amount}
          onChange={(v) => setAmount(String(v))}
          min={0}
          allowNegative={false}
          decimalScale={8}
          step={Number(smallest)}
          error={amount !== '' ? problem : undefined}
          description={t('From {{min}} to {{max}}', { min: smallest.toString(), max: whole.toString() })}
        />
        <Group gap={6} grow>
          {[0.25, 0.5, 0.75].map((f) => (
            <Button key={f} size="compact-sm" variant="default" onClick={() => share(f)}>
              {`${f * 100}%`}
            </Button>
          ))}
          <Button size="compact-sm" variant="default" onClick={() => setAmount(whole.toString())}>
            {t('All')}
          </Button>
        </Group>
        {restHint && (
          <Text size="sm" c="orange">
            {restHint}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={submit} loading={close.isPending} disabled={problem !== null || lot.isPending}>
            {part?.lessThan(whole) ? t('Close {{amount}}', { amount: part.toString() }) : t('Close All')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
