import { Badge, Box, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, type Decimal, dec, formatOrderTime, type OrderDto } from '@platform/domain';
import { CardFigure } from '../../ui/responsive-list/index.ts';
import { formatProfitLoss, formatCharge, pairLabel } from './figures.ts';
import type { ProtectionKind } from './ProtectionDialog.tsx';
import { PositionActions } from './PositionActions.tsx';
import { rateText } from './pendingFormat.ts';
import { amountWithUnit, useLivePrice } from './TableCells.tsx';
import type { AmountText } from './terminalTables.ts';
import { TradeCardHeader } from './TradeCardHeader.tsx';

export interface PositionsTableProps {
  rows: readonly OrderDto[];
  /** 'open' leaves out the close rate and close time, which open positions do not have yet. */
  variant: 'all' | 'open';
  /** Live P/L of open positions by order id. */
  liveProfitLoss: ReadonlyMap<number, Decimal | null>;
  currency: string;
  /** Price digits of an instrument by name. */
  digitsOf: (instrument: string) => number | undefined;
  onClosePosition: (order: OrderDto) => void;
  onProtect: (order: OrderDto, kind: ProtectionKind) => void;
  /** Opens the partial close of a position. */
  onPartialClose?: (order: OrderDto) => void;
  /** The order whose close is in flight. */
  closingId: number | null;
  emptyText: string;
}

/** A price of a position at its instrument's digits ('-' when it has none). */
export const positionRate = (props: PositionsTableProps, o: OrderDto, value: string | null) =>
  rateText(value, props.digitsOf(o.instrument));

/** The price a position would close at now (bid for a buy, ask for a sell), live. */
function CurrentPrice({ order, digits }: { order: OrderDto; digits: number | undefined }) {
  const { t } = useTranslation();
  const value = useLivePrice(order.instrument, order.type, 'close', digits);
  return <CardFigure label={t('Current Price')} value={value} testId={`current-${order.id}`} />;
}

/** A deal's swap and commission so far: what it paid (red) or earned (green), plain when none. */
function Charges({ order, currency }: { order: OrderDto; currency: string }) {
  const { t } = useTranslation();
  const charges = (['swap', 'commission'] as const).map((field) => ({
    field,
    label: field === 'swap' ? t('Swap') : t('Commission'),
    ...formatCharge(order[field], currency),
  }));
  return (
    <Group gap="md" mt={6}>
      {charges.map((c) => (
        <Text key={c.field} size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {c.label}{' '}
          <Text span size="xs" fw={600} c={c.color} data-testid={`${c.field}-${order.id}`}>
            {c.text}
          </Text>
        </Text>
      ))}
    </Group>
  );
}

/**
 * A position on a phone, so nothing is off-screen. An open position shows its ticket, instrument, side, amount (lots
 * where its category trades in lots), open and current price, swap, commission, its live P/L and the stop-loss,
 * take-profit and close actions; a closed one its close price, final P/L, why it closed and when.
 */
export function PositionCard({
  order: o,
  amount,
  ...props
}: { order: OrderDto; amount?: AmountText } & PositionsTableProps) {
  const { liveProfitLoss, currency, digitsOf, onClosePosition, onProtect, onPartialClose, closingId } = props;
  const { t } = useTranslation();
  const rate = (value: string | null) => positionRate(props, o, value);
  const open = o.close_time === null;
  const pl = formatProfitLoss(open ? liveProfitLoss.get(o.id) : o.pro_loss, currency);
  return (
    <>
      <TradeCardHeader
        instrument={pairLabel(o.base_symbol, o.quote_symbol)}
        side={o.type}
        sideLabel={o.type === 'buy' ? t('BUY') : t('SELL')}
        time={formatOrderTime(o.created_at)}
        ticket={{ id: o.id, testId: `ticket-${o.id}` }}
        aside={
          <div style={{ textAlign: 'right' }}>
            <Text size="xs" c="dimmed">
              {t('P/L')}
            </Text>
            <Text
              fw={700}
              c={pl.color}
              style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
              data-testid={`pl-${o.id}`}
            >
              {pl.text}
            </Text>
          </div>
        }
      />
      <SimpleGrid cols={3} spacing="xs" mt="xs">
        <CardFigure
          label={t('Amount')}
          value={amount ? amountWithUnit(amount, t('lot')) : dec(o.trade_amount).toString()}
          testId={`amount-${o.id}`}
        />
        <CardFigure label={t('Open Rate')} value={rate(o.open_rate)} />
        {open ? (
          <CurrentPrice order={o} digits={digitsOf(o.instrument)} />
        ) : (
          <CardFigure label={t('Close Rate')} value={rate(o.close_rate)} />
        )}
      </SimpleGrid>
      <Charges order={o} currency={currency} />
      {open ? (
        // The levels keep one line; the actions go under them when both do not fit (a phone's width).
        <Group justify="space-between" mt="xs" gap={6}>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t('SL')} {rate(o.loss)}
            {o.trailing_distance !== null && ` (${t('trailing')})`} · {t('TP')} {rate(o.profit)}
          </Text>
          <Box ml="auto">
            <PositionActions
              order={o}
              closing={closingId === o.id}
              large
              onProtect={onProtect}
              onPartialClose={onPartialClose}
              onClose={onClosePosition}
            />
          </Box>
        </Group>
      ) : (
        <Group justify="space-between" mt="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {t('Closed')} {formatOrderTime(o.close_time)}
          </Text>
          <Badge color="yellow" variant="light" miw="max-content">
            {o.close_reason && o.close_reason !== 'manual' ? t(CLOSE_REASON_LABELS[o.close_reason]) : t('CLOSED')}
          </Badge>
        </Group>
      )}
    </>
  );
}
