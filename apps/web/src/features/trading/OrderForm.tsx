import { useState } from 'react';
import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AMOUNT_STEP,
  dec,
  formatMoney,
  GENERIC_ERROR,
  newOrderBounds,
  type BalanceDto,
  type InstrumentDto,
  type LotStateResponse,
  type OrderCreateRequest,
  type OrderResponse,
  type PricingTableDto,
  type Side,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { refreshTrading } from './api.ts';
import { estimateOrder, formatPrice, leverageOf, startingLevel, type Prices } from './figures.ts';
import { ProtectionField, rateAllowed } from './RateInput.tsx';

export interface OrderFormProps {
  side: Side;
  instrument: InstrumentDto;
  prices: Prices;
  /** Quote-currency units per wallet-currency unit. */
  conversionRate: string;
  lot: LotStateResponse;
  wallet: BalanceDto;
  plan: PricingTableDto | null;
  /** Live P/L of the wallet's open positions, part of its free margin. */
  openProfitLoss: string;
  onDone: () => void;
}

function Line({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} c={color} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Group>
  );
}

/** The body of the Buy and Sell dialogs (spec §4, §5): size, take-profit, stop-loss, margin figures, submit. */
export function OrderForm({
  side,
  instrument,
  prices,
  conversionRate,
  lot,
  wallet,
  plan,
  openProfitLoss,
  onDone,
}: OrderFormProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // Opens at the smallest preset (lot mode) or the category's smallest step (amount mode).
  const step = AMOUNT_STEP[instrument.category];
  const [amount, setAmount] = useState<string>(() =>
    lot.lotState === 'lot' ? String(lot.lotSelector[0]?.value ?? '') : step,
  );
  const [takeProfit, setTakeProfit] = useState<{ on: boolean; value: string }>({ on: false, value: '' });
  const [stopLoss, setStopLoss] = useState<{ on: boolean; value: string }>({ on: false, value: '' });

  const leverage = leverageOf(plan, instrument.category, instrument.leverage);
  const estimate = estimateOrder({
    side,
    prices,
    instrument,
    amount,
    leverage,
    conversionRate,
    balance: wallet.balance,
    margin: wallet.margin,
    openProfitLoss,
  });
  const bounds = newOrderBounds(side, prices);
  const levelsValid =
    (!takeProfit.on || rateAllowed(takeProfit.value, bounds.takeProfit)) &&
    (!stopLoss.on || rateAllowed(stopLoss.value, bounds.stopLoss));

  const place = useMutation({
    mutationFn: (body: OrderCreateRequest) => apiPost<OrderResponse>('/dashboard/orders', body),
    onSuccess: () => {
      toastSuccess(t('Order Placed Successfully'));
      void refreshTrading(client);
      onDone();
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
  });
  const submit = () =>
    place.mutate({
      type: side,
      instrument: instrument.name,
      amount: dec(amount).toString(),
      profit: takeProfit.on ? takeProfit.value : null,
      loss: stopLoss.on ? stopLoss.value : null,
    });

  const stepAmount = (by: number) => {
    const current = /^\d*\.?\d+$/.test(amount) ? dec(amount) : dec(0);
    const next = current.plus(dec(step).times(by));
    setAmount((next.isNegative() ? dec(0) : next).toString());
  };
  const currency = wallet.currency;
  const blocked = !estimate.hasAmount || estimate.problem !== null || !levelsValid;

  return (
    <Stack gap="md">
      {lot.lotState === 'lot' ? (
        <Select
          label={t('Select lot size')}
          data={lot.lotSelector.map((o) => ({ value: String(o.value), label: o.label }))}
          value={amount || null}
          onChange={(v) => setAmount(v ?? '')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
        />
      ) : (
        <NumberInput
          label={t('Amount')}
          value={amount}
          onChange={(v) => setAmount(String(v))}
          min={0}
          allowNegative={false}
          decimalScale={8}
          hideControls
          styles={{ input: { textAlign: 'center' } }}
          leftSection={
            <ActionIcon variant="subtle" aria-label={t('Decrease amount')} onClick={() => stepAmount(-1)}>
              <IconMinus size={14} />
            </ActionIcon>
          }
          rightSection={
            <ActionIcon variant="subtle" aria-label={t('Increase amount')} onClick={() => stepAmount(1)}>
              <IconPlus size={14} />
            </ActionIcon>
          }
        />
      )}
      <ProtectionField
        label={t('Take Profit')}
        enabled={takeProfit.on}
        onToggle={(on) =>
          setTakeProfit((s) => ({ on, value: s.value || startingLevel(side, 'takeProfit', prices, instrument.digits) }))
        }
        value={takeProfit.value}
        onChange={(value) => setTakeProfit({ on: true, value })}
        bounds={bounds.takeProfit}
        digits={instrument.digits}
      />
      <ProtectionField
        label={t('Stop Loss')}
        enabled={stopLoss.on}
        onToggle={(on) =>
          setStopLoss((s) => ({ on, value: s.value || startingLevel(side, 'stopLoss', prices, instrument.digits) }))
        }
        value={stopLoss.value}
        onChange={(value) => setStopLoss({ on: true, value })}
        bounds={bounds.stopLoss}
        digits={instrument.digits}
      />
      <Stack gap={4} data-testid="order-figures">
        <Line
          label={side === 'buy' ? t('Ask') : t('Bid')}
          value={formatPrice(estimate.price.toString(), instrument.digits)}
        />
        <Line label={t('Leverage')} value={`1:${leverage}`} />
        <Line label={t('Required Margin')} value={formatMoney(estimate.requiredMargin, currency)} />
        <Line label={t('Pip Value')} value={formatMoney(estimate.pipValue, currency)} />
        <Line
          label={t('Estimated P/L')}
          value={formatMoney(estimate.profitLoss, currency)}
          color={estimate.profitLoss.greaterThan(0) ? 'teal' : 'red'}
        />
      </Stack>
      {estimate.problem && (
        <Text c="red" size="sm" fw={600} role="alert">
          {t(estimate.problem)}
        </Text>
      )}
      <Button
        color={side === 'buy' ? 'teal' : 'red'}
        size="md"
        disabled={blocked}
        loading={place.isPending}
        onClick={submit}
      >
        {side === 'buy' ? t('Buy') : t('Sell')}
      </Button>
    </Stack>
  );
}
