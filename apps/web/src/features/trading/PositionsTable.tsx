import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, dec, formatOrderTime, type OrderDto } from '@platform/domain';
import { ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { formatProfitLoss, formatCharge, pairLabel } from './figures.ts';
import { PositionCard, positionRate, type PositionsTableProps } from './PositionCard.tsx';
import { PositionActions } from './PositionActions.tsx';

export type { PositionsTableProps };

type Column = ListColumn<OrderDto> & { closedOnly?: boolean };

const nowrap = { whiteSpace: 'nowrap' } as const;

/** YYYY-MM-DD h:mm A with the time under the date, so the wide table still fits beside the instrument list. */
function When({ value }: { value: string | null }) {
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

/** What a deal has paid (red) or earned (green) so far — its swap at the rollovers, or its commission; already in the balance. */
function ChargeFigure({ order, field, currency }: { order: OrderDto; field: 'swap' | 'commission'; currency: string }) {
  const charge = formatCharge(order[field], currency);
  return (
    <Text span size="sm" c={charge.color} style={nowrap} data-testid={`${field}-${order.id}`}>
      {charge.text}
    </Text>
  );
}

/**
 * Orders with the spec's fields (§3): OPENED green / CLOSED yellow, P/L to 5 decimals, times YYYY-MM-DD h:mm A;
 * figures right-aligned. On a phone (up to 48em) cards instead, so P/L and the actions are never off-screen.
 */
export function PositionsTable(props: PositionsTableProps) {
  const { rows, variant, liveProfitLoss, currency, onClosePosition, onProtect, onPartialClose, closingId } = props;
  const { t } = useTranslation();
  const rate = (o: OrderDto, value: string | null) => positionRate(props, o, value);
  const isOpen = (o: OrderDto) => o.close_time === null;

  const status = (o: OrderDto) =>
    isOpen(o) ? (
      <Badge color="green" variant="light" miw="max-content">
        {t('OPENED')}
      </Badge>
    ) : (
      // Why and what it was part of go under the chip, so the column stays narrow.
      <Stack gap={2} align="flex-start">
        <Badge color="yellow" variant="light" miw="max-content">
          {t('CLOSED')}
        </Badge>
        {o.partial_of !== null && (
          <Text size="xs" c="dimmed" style={nowrap}>
            {t('Part of #{{id}}', { id: o.partial_of })}
          </Text>
        )}
        {/* Closes the owner did not make (take-profit, stop-loss, stop-out, broker) say why. */}
        {o.close_reason && o.close_reason !== 'manual' && (
          <Text size="xs" c="dimmed" style={nowrap}>
            {t(CLOSE_REASON_LABELS[o.close_reason])}
          </Text>
        )}
      </Stack>
    );

  const actions = (o: OrderDto) =>
    isOpen(o) && (
      <PositionActions
        order={o}
        closing={closingId === o.id}
        onProtect={onProtect}
        onPartialClose={onPartialClose}
        onClose={onClosePosition}
      />
    );

  const profitLoss = (o: OrderDto) => {
    const pl = formatProfitLoss(isOpen(o) ? liveProfitLoss.get(o.id) : o.pro_loss, currency);
    return (
      <Text span size="sm" fw={600} c={pl.color} style={nowrap} data-testid={`pl-${o.id}`}>
        {pl.text}
      </Text>
    );
  };

  const allColumns: Column[] = [
    { key: 'time', label: t('Time'), render: (o) => <When value={o.created_at} /> },
    {
      key: 'instrument',
      label: t('Instrument'),
      render: (o) => (
        <Text span size="sm" fw={600} style={nowrap}>
          {pairLabel(o.base_symbol, o.quote_symbol)}
        </Text>
      ),
    },
    {
      key: 'type',
      label: t('Type'),
      render: (o) => (
        <Text span size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'}>
          {o.type === 'buy' ? t('BUY') : t('SELL')}
        </Text>
      ),
    },
    { key: 'amount', numeric: true, label: t('Amount'), render: (o) => dec(o.trade_amount).toString() },
    { key: 'open', numeric: true, label: t('Open Rate'), render: (o) => rate(o, o.open_rate) },
    { key: 'close', numeric: true, label: t('Close Rate'), render: (o) => rate(o, o.close_rate), closedOnly: true },
    { key: 'tp', numeric: true, label: t('Take Profit'), render: (o) => rate(o, o.profit) },
    {
      key: 'sl',
      numeric: true,
      label: t('Stop Loss'),
      render: (o) =>
        o.trailing_distance === null || !isOpen(o) ? (
          rate(o, o.loss)
        ) : (
          <Tooltip label={t('Trailing stop {{distance}}', { distance: rate(o, o.trailing_distance) })}>
            <span style={nowrap} data-testid={`trailing-${o.id}`}>
              {rate(o, o.loss)} ⤴
            </span>
          </Tooltip>
        ),
    },
    { key: 'pl', numeric: true, label: t('P/L'), render: profitLoss },
    {
      key: 'swap',
      numeric: true,
      label: t('Swap'),
      render: (o) => <ChargeFigure order={o} field="swap" currency={currency} />,
    },
    {
      key: 'commission',
      numeric: true,
      label: t('Commission'),
      render: (o) => <ChargeFigure order={o} field="commission" currency={currency} />,
      // All Positions is two columns wider: there it waits in the column chooser, so the table fits at 1366 px.
      hidden: variant === 'all',
    },
    { key: 'status', label: t('Status'), render: status },
    { key: 'closeTime', label: t('Close Time'), render: (o) => <When value={o.close_time} />, closedOnly: true },
    { key: 'actions', label: t('Actions'), render: actions },
  ];
  const columns = allColumns.filter((c) => variant === 'all' || !c.closedOnly);

  return (
    <ResponsiveList
      rows={rows}
      columns={columns}
      card={(o) => <PositionCard order={o} {...props} />}
      rowKey={(o) => o.id}
      rowTestId={(o) => `position-${o.id}`}
      emptyText={props.emptyText}
      cardsTestId="position-cards"
      tableId={`positions-${variant}`}
    />
  );
}
