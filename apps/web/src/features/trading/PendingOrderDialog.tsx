import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { dec, newOrderBounds, type PendingOrderDto, type PendingOrderUpdateRequest } from '@platform/domain';
import { formatPrice } from './figures.ts';
import { expiryValue, fillPrice, pendingPriceHint, pricesAt, type ExpiryChoice } from './orderKinds.ts';
import { PendingFields, type PendingValues } from './OrderTypeFields.tsx';
import { instrumentLabel, pendingTypeLabel } from './pendingFormat.ts';
import { useQuote } from './quotes.ts';
import { ProtectionField, rateAllowed } from './RateInput.tsx';
import { usePendingActions } from './usePendingActions.ts';

export interface PendingOrderDialogProps {
  order: PendingOrderDto;
  digits: number;
  onClose: () => void;
}

const level = (v: string | null, digits: number) => (v === null ? '' : dec(v).toFixed(Math.min(5, digits)));
const same = (a: string, b: string | null) => b !== null && /^\d*\.?\d+$/.test(a) && dec(a).equals(b);

/**
 * Modify a pending order: its price (a stop-limit's two prices), take-profit, stop-loss and expiry. Only what changed
 * is sent; the server's message says how it went.
 */
export function PendingOrderDialog({ order, digits, onClose }: PendingOrderDialogProps) {
  const { t } = useTranslation();
  const quote = useQuote(order.instrument);
  const { modify } = usePendingActions();
  const [values, setValues] = useState<PendingValues>({
    price: dec(order.price).toString(),
    limitPrice: order.limit_price === null ? '' : dec(order.limit_price).toString(),
    expiry: order.expiry as ExpiryChoice,
    expiryDate: order.expires_at ? dayjs(order.expires_at).format('YYYY-MM-DDTHH:mm') : '',
  });
  const [takeProfit, setTakeProfit] = useState({ on: order.profit !== null, value: level(order.profit, digits) });
  const [stopLoss, setStopLoss] = useState({ on: order.loss !== null, value: level(order.loss, digits) });

  const kind = order.order_type;
  const prices = quote ? { bid: quote.bid, ask: quote.ask } : { bid: Number(order.price), ask: Number(order.price) };
  const at = fillPrice(kind, values.price, values.limitPrice);
  const priced = /^\d*\.?\d+$/.test(at) && Number(at) > 0;
  const start = priced ? level(at, digits) : '';
  const bounds = newOrderBounds(order.type, pricesAt(order.type, priced ? at : order.price, prices));
  const hint = quote
    ? pendingPriceHint(order.type, kind, prices, values.price, values.limitPrice, order.activated_at !== null)
    : null;
  const expiry = expiryValue(values.expiry, values.expiryDate);
  const levelsValid =
    (!takeProfit.on || rateAllowed(takeProfit.value, bounds.takeProfit)) &&
    (!stopLoss.on || rateAllowed(stopLoss.value, bounds.stopLoss));

  const body: PendingOrderUpdateRequest = {};
  if (!same(values.price, order.price)) body.price = values.price.trim();
  if (kind === 'stop_limit' && !same(values.limitPrice, order.limit_price)) body.limitPrice = values.limitPrice.trim();
  if (takeProfit.on ? !same(takeProfit.value, order.profit) : order.profit !== null)
    body.profit = takeProfit.on ? takeProfit.value : null;
  if (stopLoss.on ? !same(stopLoss.value, order.loss) : order.loss !== null)
    body.loss = stopLoss.on ? stopLoss.value : null;
  const expiryChanged =
    values.expiry !== order.expiry || (values.expiry === 'date' && expiry !== dayjs(order.expires_at).toISOString());
  if (expiryChanged && expiry) body.expiry = expiry;
  const blocked =
    Object.keys(body).length === 0 || hint?.missing === true || !levelsValid || (values.expiry === 'date' && !expiry);

  const submit = () => modify.mutate({ id: order.id, body }, { onSuccess: onClose });

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      size="md"
      title={
        <Stack gap={0}>
          <Text fw={700}>{t('Modify Pending Order')}</Text>
          <Text size="sm" c="dimmed">
            {instrumentLabel(order.instrument)} · {t(pendingTypeLabel(order))} · {dec(order.amount).toString()}
            {quote &&
              ` · ${order.type === 'buy' ? t('Ask') : t('Bid')} ${formatPrice(order.type === 'buy' ? quote.ask : quote.bid, digits)}`}
          </Text>
        </Stack>
      }
    >
      <Stack gap="md">
        <PendingFields
          side={order.type}
          kind={kind}
          digits={digits}
          values={values}
          onChange={(v) => setValues((s) => ({ ...s, ...v }))}
          hint={hint ? t(hint.text, hint.values) : null}
          expiryInvalid={values.expiry === 'date' && !expiry}
        />
        <ProtectionField
          label={t('Take Profit')}
          enabled={takeProfit.on}
          onToggle={(on) => setTakeProfit((s) => ({ on, value: s.value || start }))}
          value={takeProfit.value}
          onChange={(value) => setTakeProfit({ on: true, value })}
          bounds={bounds.takeProfit}
          digits={digits}
        />
        <ProtectionField
          label={t('Stop Loss')}
          enabled={stopLoss.on}
          onToggle={(on) => setStopLoss((s) => ({ on, value: s.value || start }))}
          value={stopLoss.value}
          onChange={(value) => setStopLoss({ on: true, value })}
          bounds={bounds.stopLoss}
          digits={digits}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button onClick={submit} loading={modify.isPending} disabled={blocked}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
