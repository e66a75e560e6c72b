import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PendingKind, Side } from '@platform/domain';
import { choiceValue, ORDER_CHOICES, type ExpiryChoice, type OrderChoice } from './orderKinds.ts';

export interface PendingValues {
  price: string;
  limitPrice: string;
  expiry: ExpiryChoice;
  /** datetime-local text, used when expiry is `date`. */
  expiryDate: string;
}

/** Price steps of one pip-like unit: 0.0001 at 5 digits, 0.01 at 3, 0.1 at 2. */
export const priceStep = (digits: number): number => 10 ** Math.min(0, 1 - digits);

/** The order type select: Market or one of the six pending kinds. */
export function OrderTypeSelect({ choice, onChoose }: { choice: OrderChoice; onChoose: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('Order type')}
      data={ORDER_CHOICES.map((c) => ({ value: c.value, label: t(c.label) }))}
      value={choiceValue(choice)}
      onChange={(v) => v && onChoose(v)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

export interface PendingFieldsProps {
  side: Side;
  kind: PendingKind;
  digits: number;
  values: PendingValues;
  onChange: (values: Partial<PendingValues>) => void;
  /** The server's rule the prices break at the current quote (already translated), or null. */
  hint: string | null;
  /** The chosen date is missing or past. */
  expiryInvalid: boolean;
}

/** A pending order's price (a stop-limit's stop and limit prices) and how long it waits. */
export function PendingFields({ side, kind, digits, values, onChange, hint, expiryInvalid }: PendingFieldsProps) {
  const { t } = useTranslation();
  const price = (label: string, key: 'price' | 'limitPrice') => (
    <NumberInput
      label={label}
      value={values[key]}
      onChange={(v) => onChange({ [key]: String(v) })}
      min={0}
      allowNegative={false}
      decimalScale={Math.min(digits, 8)}
      step={priceStep(digits)}
      inputMode="decimal"
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
    />
  );
  return (
    <Stack gap="sm" data-testid="pending-fields">
      {kind === 'stop_limit' ? (
        <SimpleGrid cols={2} spacing="sm">
          {price(t('Stop price'), 'price')}
          {price(t('Limit price'), 'limitPrice')}
        </SimpleGrid>
      ) : (
        price(t('Order price'), 'price')
      )}
      {hint && (
        <Text size="sm" c="orange" role="status" data-testid="pending-hint">
          {hint}
        </Text>
      )}
      <SimpleGrid cols={values.expiry === 'date' ? 2 : 1} spacing="sm">
        <Select
          label={t('Expiry')}
          data={[
            { value: 'gtc', label: t('Good till cancelled') },
            { value: 'day', label: t('End of day') },
            { value: 'date', label: t('Date and time') },
          ]}
          value={values.expiry}
          onChange={(v) => v && onChange({ expiry: v as ExpiryChoice })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
        />
        {values.expiry === 'date' && (
          <TextInput
            type="datetime-local"
            label={t('Expires at')}
            value={values.expiryDate}
            onChange={(e) => onChange({ expiryDate: e.currentTarget.value })}
            error={expiryInvalid ? t('Choose a time in the future') : undefined}
          />
        )}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {side === 'buy'
          ? t('Buy orders trigger on the ask. Margin is checked when the order fills.')
          : t('Sell orders trigger on the bid. Margin is checked when the order fills.')}
      </Text>
    </Stack>
  );
}
