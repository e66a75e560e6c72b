import { SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { inPips } from './orderKinds.ts';

export interface TrailingValue {
  on: boolean;
  distance: string;
  step: string;
}

const DECIMAL = /^\d*\.?\d{0,8}$/;
export const isDistance = (s: string): boolean => /^\d*\.?\d+$/.test(s.trim()) && Number(s) > 0;
export const isStep = (s: string): boolean => s.trim() === '' || /^\d*\.?\d+$/.test(s.trim());

/**
 * A trailing stop: the server moves the stop-loss after the price at `distance`, in moves of at least `step`, only in
 * the trader's favour. Both are prices, shown also in pips.
 */
export function TrailingStopField({
  value,
  onChange,
  quote,
}: {
  value: TrailingValue;
  onChange: (value: TrailingValue) => void;
  /** The instrument's quote currency, for the pips. */
  quote: string;
}) {
  const { t } = useTranslation();
  const pips = (s: string) => {
    const p = inPips(s, quote);
    return p === null ? undefined : t('{{pips}} pips', { pips: p });
  };
  const field = (key: 'distance' | 'step', label: string, valid: (s: string) => boolean) => (
    <TextInput
      label={label}
      value={value[key]}
      inputMode="decimal"
      autoComplete="off"
      onChange={(e) => {
        const next = e.currentTarget.value;
        if (DECIMAL.test(next)) onChange({ ...value, [key]: next });
      }}
      description={pips(value[key] || '0')}
      error={value[key] !== '' && !valid(value[key]) ? t('Enter a positive number') : undefined}
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
    />
  );
  return (
    <Stack gap={6} data-testid="trailing-stop">
      <Switch
        label={t('Trailing stop')}
        checked={value.on}
        onChange={(e) => onChange({ ...value, on: e.currentTarget.checked })}
      />
      {value.on && (
        <>
          <SimpleGrid cols={2} spacing="sm">
            {field('distance', t('Trailing distance'), isDistance)}
            {field('step', t('Trailing step'), isStep)}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t(
              'The server moves the stop-loss as the price moves in your favour, never back, even with this page closed.',
            )}
          </Text>
        </>
      )}
    </Stack>
  );
}
