import type { KeyboardEvent } from 'react';
import { ActionIcon, Stack, Switch, TextInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dec, withinBounds, type Decimal } from '@platform/domain';

export interface RateBounds {
  min: Decimal;
  max: Decimal | null;
}

/** Rates are typed with at most 5 decimals: the step of every rate field is 0.00001 (spec §9). */
export const RATE_STEP = '0.00001';
const RATE_PATTERN = /^\d*\.?\d{0,5}$/;

export const isRate = (value: string): boolean => /^\d+(\.\d{1,5})?$/.test(value);

/** True when the value is a complete rate inside the bounds. */
export const rateAllowed = (value: string, bounds: RateBounds): boolean => isRate(value) && withinBounds(value, bounds);

export interface RateInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  bounds: RateBounds;
  digits: number;
  /** The label is read by assistive technology only (a switch beside it shows it already). */
  hideLabel?: boolean;
}

/**
 * A take-profit or stop-loss rate with − and + buttons that move it by 1 inside its bounds (spec §5).
 * Keystrokes that cannot lead to a valid rate (letters, a sixth decimal, a value above the upper bound) are
 * ignored; a value below the lower bound stays while being typed and is flagged, since more digits may fix it.
 */
export function RateInput({ label, value, onChange, bounds, digits, hideLabel = false }: RateInputProps) {
  const { t } = useTranslation();
  const show = (d: Decimal) => d.toFixed(Math.max(digits, d.decimalPlaces()));
  const current = isRate(value) ? dec(value) : null;

  const accept = (next: string) => {
    if (!RATE_PATTERN.test(next)) return;
    if (bounds.max && isRate(next) && dec(next).greaterThan(bounds.max)) return;
    onChange(next);
  };
  const step = (by: Decimal.Value) => {
    const base = current ?? bounds.min;
    let next = base.plus(by);
    if (next.lessThan(bounds.min)) next = bounds.min;
    if (bounds.max && next.greaterThan(bounds.max)) next = bounds.max;
    onChange(show(next));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    step(e.key === 'ArrowUp' ? RATE_STEP : `-${RATE_STEP}`);
  };

  const canDecrease = current !== null && current.greaterThan(bounds.min);
  const canIncrease = !bounds.max || current === null || current.lessThan(bounds.max);
  const outside = value !== '' && !rateAllowed(value, bounds);
  const error = outside
    ? bounds.max
      ? t('Enter a rate between {{min}} and {{max}}', { min: show(bounds.min), max: show(bounds.max) })
      : t('Enter a rate of at least {{min}}', { min: show(bounds.min) })
    : undefined;

  return (
    <TextInput
      label={hideLabel ? undefined : label}
      aria-label={label}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      onChange={(e) => accept(e.currentTarget.value)}
      onKeyDown={onKeyDown}
      error={error}
      styles={{ input: { textAlign: 'center', fontVariantNumeric: 'tabular-nums' } }}
      leftSection={
        <ActionIcon
          variant="subtle"
          aria-label={t('Decrease {{label}}', { label })}
          disabled={!canDecrease}
          onClick={() => step(-1)}
        >
          <IconMinus size={14} />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon
          variant="subtle"
          aria-label={t('Increase {{label}}', { label })}
          disabled={!canIncrease}
          onClick={() => step(1)}
        >
          <IconPlus size={14} />
        </ActionIcon>
      }
    />
  );
}

export interface ProtectionFieldProps extends RateInputProps {
  enabled: boolean;
  onToggle: (enabled: boolean) => void;
}

/** A take-profit or stop-loss switch with its rate: off means no level (null is sent). */
export function ProtectionField({ enabled, onToggle, ...rate }: ProtectionFieldProps) {
  return (
    <Stack gap={6}>
      <Switch label={rate.label} checked={enabled} onChange={(e) => onToggle(e.currentTarget.checked)} />
      {enabled && <RateInput {...rate} hideLabel />}
    </Stack>
  );
}
