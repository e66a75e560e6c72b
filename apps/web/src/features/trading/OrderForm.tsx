import { useState } from 'react';
import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  AMOUNT_STEP,
  dec,
  formatMoney,
  newOrderBounds,
  openPrice,
  type BalanceDto,
  type InstrumentDto,
  type LotStateResponse,
  type PricingTableDto,
} from '@platform/domain';
import {
  amountOf,
  estimateOrder,
  formatPrice,
  leverageOf,
  orderCommission,
  startingLevel,
  type OrderCommission,
  type Prices,
} from './figures.ts';
import {
  choiceOf,
  defaultExpiryDate,
  expiryValue,
  fillPrice,
  pendingLabel,
  pendingPriceHint,
  pricesAt,
  startingPrices,
  type OrderChoice,
} from './orderKinds.ts';
import { OrderTypeSelect, PendingFields, type PendingValues } from './OrderTypeFields.tsx';
import { ProtectionField, rateAllowed } from './RateInput.tsx';
import { usePlaceOrder } from './usePlaceOrder.ts';

export interface OrderFormProps {
  /** Market (today's order) or a pending kind, and its side. */
  choice: OrderChoice;
  onChoose: (choice: OrderChoice) => void;
  instrument: InstrumentDto;
  prices: Prices;
  /** Quote-currency units per wallet-currency unit. */
  conversionRate: string;
  /** US-dollar units per wallet-currency unit, for the plan's commission; null without one (or not known yet). */
  usdConversion?: string | null;
  lot: LotStateResponse;
  wallet: BalanceDto;
  plan: PricingTableDto | null;
  /** Live P/L of the wallet's open positions, part of its free margin. */
  openProfitLoss: string;
  onDone: () => void;
}

function Line({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} c={color} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

/** The plan's commission of this order: at open (and "the same at close" when charged both ways), or at close. */
function CommissionLine({ commission, currency }: { commission: OrderCommission; currency: string }) {
  const { t } = useTranslation();
  const value = commission.amount === null ? '-' : formatMoney(commission.amount, currency);
  return (
    <div>
      <Line
        label={commission.atOpen ? t('Commission') : t('Commission at close')}
        value={value}
        testId="order-commission"
      />
      {commission.atOpen && commission.atClose && (
        <Text size="xs" c="dimmed" ta="right">
          {t('and the same at close')}
        </Text>
      )}
    </div>
  );
}

const OFF = { on: false, value: '' };

/**
 * The body of the Buy and Sell dialogs (spec §4, §5): order type, size, take-profit, stop-loss, margin figures, submit.
 * A pending order adds its price(s) and expiry; its take-profit and stop-loss bounds and its figures are taken at the
 * price where it would fill, and margin is only shown (the server checks it when the order fills).
 */
export function OrderForm({
  choice,
  onChoose,
  instrument,
  prices,
  conversionRate,
  usdConversion = null,
  lot,
  wallet,
  plan,
  openProfitLoss,
  onDone,
}: OrderFormProps) {
  const { t } = useTranslation();
  const { side, kind } = choice;
  // Opens at the smallest preset (lot mode) or the category's smallest step (amount mode).
  const step = AMOUNT_STEP[instrument.category];
  const [amount, setAmount] = useState<string>(() =>
    lot.lotState === 'lot' ? String(lot.lotSelector[0]?.value ?? '') : step,
  );
  const [takeProfit, setTakeProfit] = useState<{ on: boolean; value: string }>(OFF);
  const [stopLoss, setStopLoss] = useState<{ on: boolean; value: string }>(OFF);
  const [pending, setPending] = useState<PendingValues>({
    price: '',
    limitPrice: '',
    expiry: 'gtc',
    expiryDate: defaultExpiryDate(),
  });

  const choose = (value: string) => {
    const next = choiceOf(value, side);
    onChoose(next);
    // Levels of the other side or another price would be out of their bounds: they start again.
    setTakeProfit(OFF);
    setStopLoss(OFF);
    const nextKind = next.kind;
    if (nextKind !== 'market')
      setPending((p) => ({ ...p, ...startingPrices(next.side, nextKind, prices, instrument.digits) }));
  };

  const isPending = kind !== 'market';
  const orderPrice = isPending ? fillPrice(kind, pending.price, pending.limitPrice) : '';
  const priced = isPending && /^\d*\.?\d+$/.test(orderPrice) && Number(orderPrice) > 0;
  // A pending order's figures and bounds are those of a fill at its price, the spread kept.
  const atPrice = priced ? pricesAt(side, orderPrice, prices) : prices;
  const hint = isPending ? pendingPriceHint(side, kind, prices, pending.price, pending.limitPrice) : null;
  const expiry = isPending ? expiryValue(pending.expiry, pending.expiryDate) : null;

  const leverage = leverageOf(plan, instrument);
  const commission = orderCommission({
    plan,
    category: instrument.category,
    contractSize: instrument.contract_size,
    amount: amountOf(amount),
    price: openPrice(side, atPrice),
    quoteConversion: conversionRate,
    usdConversion,
  });
  const estimate = estimateOrder({
    side,
    prices: atPrice,
    instrument,
    amount,
    leverage,
    conversionRate,
    balance: wallet.balance,
    margin: wallet.margin,
    openProfitLoss,
    openCommission: commission?.atOpen ? (commission.amount ?? 0) : 0,
  });
  const bounds = newOrderBounds(side, atPrice);
  const levelsValid =
    (!takeProfit.on || rateAllowed(takeProfit.value, bounds.takeProfit)) &&
    (!stopLoss.on || rateAllowed(stopLoss.value, bounds.stopLoss));

  const place = usePlaceOrder(onDone);
  const submit = () => {
    const base = {
      type: side,
      instrument: instrument.name,
      amount: dec(amount).toString(),
      profit: takeProfit.on ? takeProfit.value : null,
      loss: stopLoss.on ? stopLoss.value : null,
    };
    // A market order is sent exactly as before the pending kinds existed.
    if (kind === 'market') return place.mutate(base);
    place.mutate({
      ...base,
      orderType: kind,
      price: pending.price.trim(),
      ...(kind === 'stop_limit' ? { limitPrice: pending.limitPrice.trim() } : {}),
      expiry: expiry ?? 'gtc',
    });
  };

  const stepAmount = (by: number) => {
    const current = /^\d*\.?\d+$/.test(amount) ? dec(amount) : dec(0);
    const next = current.plus(dec(step).times(by));
    setAmount((next.isNegative() ? dec(0) : next).toString());
  };
  const currency = wallet.currency;
  // Side rules are only hinted (the quote moves; the server's answer counts); a missing price or a past date blocks.
  const pendingBlocked = isPending && (!priced || hint?.missing === true || (pending.expiry === 'date' && !expiry));
  const blocked = !estimate.hasAmount || (!isPending && estimate.problem !== null) || !levelsValid || pendingBlocked;

  return (
    <Stack gap="md">
      <OrderTypeSelect choice={choice} onChoose={choose} />
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
      {isPending && (
        <PendingFields
          side={side}
          kind={kind}
          digits={instrument.digits}
          values={pending}
          onChange={(v) => setPending((p) => ({ ...p, ...v }))}
          hint={hint ? t(hint.text, hint.values) : null}
          expiryInvalid={pending.expiry === 'date' && !expiry}
        />
      )}
      <ProtectionField
        label={t('Take Profit')}
        enabled={takeProfit.on}
        onToggle={(on) =>
          setTakeProfit((s) => ({
            on,
            value: s.value || startingLevel(side, 'takeProfit', atPrice, instrument.digits),
          }))
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
          setStopLoss((s) => ({ on, value: s.value || startingLevel(side, 'stopLoss', atPrice, instrument.digits) }))
        }
        value={stopLoss.value}
        onChange={(value) => setStopLoss({ on: true, value })}
        bounds={bounds.stopLoss}
        digits={instrument.digits}
      />
      <Stack gap={4} data-testid="order-figures">
        <Line
          label={isPending ? t('Order price') : side === 'buy' ? t('Ask') : t('Bid')}
          value={isPending && !priced ? '-' : formatPrice(estimate.price.toString(), instrument.digits)}
        />
        <Line label={t('Leverage')} value={`1:${leverage}`} />
        <Line label={t('Required Margin')} value={formatMoney(estimate.requiredMargin, currency)} />
        <Line label={t('Pip Value')} value={formatMoney(estimate.pipValue, currency)} />
        {commission && <CommissionLine commission={commission} currency={currency} />}
        <Line
          label={t('Estimated P/L')}
          value={formatMoney(estimate.profitLoss, currency)}
          color={estimate.profitLoss.greaterThan(0) ? 'teal' : 'red'}
        />
      </Stack>
      {estimate.problem && (
        <Text c={isPending ? 'orange' : 'red'} size="sm" fw={600} role="alert">
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
        {kind !== 'market' ? t(pendingLabel(side, kind)) : side === 'buy' ? t('Buy') : t('Sell')}
      </Button>
    </Stack>
  );
}
