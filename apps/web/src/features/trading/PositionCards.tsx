import { Badge, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, closePrice, type Decimal, dec, formatOrderTime, type OrderDto } from '@platform/domain';
import { formatPrice, formatProfitLoss, pairLabel } from './figures.ts';
import type { ProtectionKind } from './ProtectionDialog.tsx';
import { PositionActions } from './PositionActions.tsx';
import { useQuote } from './quotes.ts';

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

const tabular = { fontVariantNumeric: 'tabular-nums' } as const;

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={tabular} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** The price a position would close at now (bid for a buy, ask for a sell), live. */
function CurrentPrice({ order, digits }: { order: OrderDto; digits: number | undefined }) {
  const { t } = useTranslation();
  const quote = useQuote(order.instrument);
  const value = quote ? closePrice(order.type, quote).toString() : null;
  return (
    <Figure
      label={t('Current Price')}
      value={value === null ? '-' : digits === undefined ? value : formatPrice(value, digits)}
      testId={`current-${order.id}`}
    />
  );
}

/**
 * Positions on a phone: one card each, so nothing is off-screen. An open position shows instrument, side, amount,
 * open and current price, its live P/L and the stop-loss, take-profit and close actions; a closed one its close
 * price, final P/L, why it closed and when.
 */
export function PositionCards(props: PositionsTableProps) {
  const { rows, liveProfitLoss, currency, digitsOf, onClosePosition, onProtect, onPartialClose, closingId, emptyText } =
    props;
  const { t } = useTranslation();
  const rate = (o: OrderDto, value: string | null) => {
    if (value === null) return '-';
    const digits = digitsOf(o.instrument);
    return digits === undefined ? dec(value).toString() : formatPrice(value, digits);
  };
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="md">
        {emptyText}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="position-cards">
      {rows.map((o) => {
        const open = o.close_time === null;
        const pl = formatProfitLoss(open ? liveProfitLoss.get(o.id) : o.pro_loss, currency);
        return (
          <Paper key={o.id} withBorder radius="md" p="sm" data-testid={`position-${o.id}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Group gap={6} wrap="nowrap">
                  <Text fw={700}>{pairLabel(o.base_symbol, o.quote_symbol)}</Text>
                  <Text size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'}>
                    {o.type === 'buy' ? t('BUY') : t('SELL')}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed">
                  {formatOrderTime(o.created_at)}
                </Text>
              </div>
              <div style={{ textAlign: 'right' }}>
                <Text size="xs" c="dimmed">
                  {t('P/L')}
                </Text>
                <Text fw={700} c={pl.color} style={{ ...tabular, whiteSpace: 'nowrap' }} data-testid={`pl-${o.id}`}>
                  {pl.text}
                </Text>
              </div>
            </Group>
            <SimpleGrid cols={3} spacing="xs" mt="xs">
              <Figure label={t('Amount')} value={dec(o.trade_amount).toString()} />
              <Figure label={t('Open Rate')} value={rate(o, o.open_rate)} />
              {open ? (
                <CurrentPrice order={o} digits={digitsOf(o.instrument)} />
              ) : (
                <Figure label={t('Close Rate')} value={rate(o, o.close_rate)} />
              )}
            </SimpleGrid>
            {open ? (
              // The levels keep one line; the actions go under them when both do not fit (a phone's width).
              <Group justify="space-between" mt="xs" gap={6}>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t('SL')} {rate(o, o.loss)}
                  {o.trailing_distance !== null && ` (${t('trailing')})`} · {t('TP')} {rate(o, o.profit)}
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
          </Paper>
        );
      })}
    </Stack>
  );
}
