import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, type OrderDto } from '@platform/domain';
import { ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { formatProfitLoss, formatCharge, pairLabel } from './figures.ts';
import { PositionCard, positionRate, type PositionsTableProps } from './PositionCard.tsx';
import { PositionActions } from './PositionActions.tsx';
import { Amount, LivePrice, Ticket, When } from './TableCells.tsx';
import { useAmountText, useTableKey } from './terminalTables.ts';

export type { PositionsTableProps };

type Column = ListColumn<OrderDto> & { closedOnly?: boolean };

const nowrap = { whiteSpace: 'nowrap' } as const;

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
 * Orders with the columns traders expect (ticket, time, instrument, side, amount in lots where the category trades in
 * lots, open and live current price, SL, TP, swap, commission, live P/L) and the spec's status chips: OPENED green /
 * CLOSED yellow, P/L to 5 decimals, times YYYY-MM-DD h:mm A; figures right-aligned. The column chooser in the last
 * heading hides and shows columns, remembered per user. On a phone (up to 48em) cards instead, so P/L and the actions
 * are never off-screen.
 */
export function PositionsTable(props: PositionsTableProps) {
  const { rows, variant, liveProfitLoss, currency, onClosePosition, onProtect, onPartialClose, closingId } = props;
  const { t } = useTranslation();
  const rate = (o: OrderDto, value: string | null) => positionRate(props, o, value);
  const isOpen = (o: OrderDto) => o.close_time === null;
  const amountText = useAmountText(rows.map((o) => o.kind));
  const tableKey = useTableKey(`positions-${variant}`);

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

  const all = variant === 'all';
  const allColumns: Column[] = [
    {
      key: 'ticket',
      label: t('Ticket'),
      always: true,
      render: (o) => <Ticket id={o.id} testId={`ticket-${o.id}`} />,
    },
    { key: 'time', label: t('Time'), render: (o) => <When value={o.created_at} /> },
    {
      key: 'instrument',
      label: t('Instrument'),
      always: true,
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
    {
      key: 'amount',
      numeric: true,
      label: t('Amount'),
      render: (o) => <Amount value={amountText(o.trade_amount, o.instrument, o.kind)} testId={`amount-${o.id}`} />,
    },
    { key: 'open', numeric: true, label: t('Open Rate'), render: (o) => rate(o, o.open_rate) },
    { key: 'close', numeric: true, label: t('Close Rate'), render: (o) => rate(o, o.close_rate), closedOnly: true },
    {
      key: 'current',
      numeric: true,
      label: t('Current Price'),
      render: (o) =>
        isOpen(o) ? (
          <LivePrice
            instrument={o.instrument}
            side={o.type}
            at="close"
            digits={props.digitsOf(o.instrument)}
            testId={`current-${o.id}`}
          />
        ) : (
          '-'
        ),
      // All Positions has the close rate; the live price waits in the chooser there.
      hidden: all,
    },
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
    { key: 'tp', numeric: true, label: t('Take Profit'), render: (o) => rate(o, o.profit) },
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
      hidden: all,
    },
    { key: 'pl', numeric: true, label: t('P/L'), render: profitLoss },
    // Every open position is OPENED: the chip earns its room in All Positions only.
    { key: 'status', label: t('Status'), render: status, hidden: !all },
    { key: 'closeTime', label: t('Close Time'), render: (o) => <When value={o.close_time} />, closedOnly: true },
    { key: 'actions', label: t('Actions'), render: actions },
  ];
  const columns = allColumns.filter((c) => variant === 'all' || !c.closedOnly);

  return (
    <ResponsiveList
      rows={rows}
      columns={columns}
      card={(o) => <PositionCard order={o} {...props} amount={amountText(o.trade_amount, o.instrument, o.kind)} />}
      rowKey={(o) => o.id}
      rowTestId={(o) => `position-${o.id}`}
      emptyText={props.emptyText}
      cardsTestId="position-cards"
      tableId={tableKey}
    />
  );
}
