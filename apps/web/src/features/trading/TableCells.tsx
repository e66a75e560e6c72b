import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { closePrice, formatOrderTime, openPrice, type Side } from '@platform/domain';
import { formatPrice } from './figures.ts';
import { useQuote } from './quotes.ts';
import type { AmountText } from './terminalTables.ts';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** YYYY-MM-DD h:mm A with the time under the date, so the wide tables still fit beside the instrument list. */
export function When({ value }: { value: string | null }) {
  const text = formatOrderTime(value);
  const [date, ...time] = text.split(' ');
  if (!time.length) return <>{text}</>;
  return (
    <Text span size="xs" style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
      {date}
      <Text span size="xs" c="dimmed" display="block">
        {' '}
        {time.join(' ')}
      </Text>
    </Text>
  );
}

/** A row's ticket: its id, as traders quote it to the desk. */
export function Ticket({ id, testId }: { id: number; testId: string }) {
  return (
    <Text span size="sm" c="dimmed" style={nowrap} data-testid={testId}>
      {id}
    </Text>
  );
}

/** An order size as one text, for a card: "0.10 lot" or "1500". */
export const amountWithUnit = (value: AmountText, lot: string): string =>
  value.units === null ? value.text : `${value.text} ${lot}`;

/** An order size: lots with a small "lot" after them (the units on hover), or units. */
export function Amount({ value, testId }: { value: AmountText; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Text
      span
      size="sm"
      style={nowrap}
      data-testid={testId}
      title={value.units === null ? undefined : t('{{amount}} units', { amount: value.units })}
    >
      {value.text}
      {value.units !== null && (
        <Text span size="xs" c="dimmed">
          {' '}
          {t('lot')}
        </Text>
      )}
    </Text>
  );
}

/**
 * The live price a row is measured against: `close` what a position would close at now (bid for a buy, ask for a
 * sell), `open` what a pending order waits for (ask for a buy, bid for a sell). '-' before the first quote.
 */
export function useLivePrice(instrument: string, side: Side, at: 'open' | 'close', digits: number | undefined): string {
  const quote = useQuote(instrument);
  if (!quote) return '-';
  const value = (at === 'close' ? closePrice(side, quote) : openPrice(side, quote)).toString();
  return digits === undefined ? value : formatPrice(value, digits);
}

export function LivePrice(props: {
  instrument: string;
  side: Side;
  at: 'open' | 'close';
  digits: number | undefined;
  testId: string;
}) {
  const text = useLivePrice(props.instrument, props.side, props.at, props.digits);
  return (
    <Text span size="sm" style={nowrap} data-testid={props.testId}>
      {text}
    </Text>
  );
}
