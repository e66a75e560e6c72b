import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { PendingActions, type PendingOrdersTableProps } from './PendingActions.tsx';
import { PendingOrderCard } from './PendingOrderCard.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';
import { Amount, LivePrice, Ticket, When } from './TableCells.tsx';
import { useAmountText, useTableKey } from './terminalTables.ts';

export type { PendingOrdersTableProps };

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * The wallet's waiting orders: ticket, time, instrument, type, amount (lots where the category trades in lots), order
 * price (a stop-limit's limit under it), the live price it waits for, SL, TP, expiry and status, with a column chooser
 * remembered per user; on a phone (up to 48em) cards instead.
 */
export function PendingOrdersTable({ rows, digitsOf, emptyText, ...actions }: PendingOrdersTableProps) {
  const { t } = useTranslation();
  const rate = (o: PendingOrderDto, v: string | null) => rateText(v, digitsOf(o.instrument));
  const canLink = rows.filter((r) => r.oco_id === null).length > 1;
  const amountText = useAmountText(rows.map((o) => o.kind));
  const tableKey = useTableKey('pending');
  const columns: ListColumn<PendingOrderDto>[] = [
    { key: 'ticket', label: t('Ticket'), always: true, render: (o) => <Ticket id={o.id} testId={`ticket-${o.id}`} /> },
    {
      key: 'time',
      label: t('Time'),
      render: (o) => <When value={o.created_at} />,
    },
    {
      key: 'instrument',
      label: t('Instrument'),
      always: true,
      render: (o) => (
        <Text span size="sm" fw={600} style={nowrap}>
          {instrumentLabel(o.instrument)}
        </Text>
      ),
    },
    {
      key: 'type',
      label: t('Type'),
      render: (o) => (
        <Text span size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'} style={nowrap}>
          {t(pendingTypeLabel(o))}
        </Text>
      ),
    },
    {
      key: 'amount',
      label: t('Amount'),
      numeric: true,
      render: (o) => <Amount value={amountText(o.amount, o.instrument, o.kind)} testId={`amount-${o.id}`} />,
    },
    {
      key: 'price',
      label: t('Order price'),
      numeric: true,
      render: (o) =>
        o.limit_price === null ? (
          rate(o, o.price)
        ) : (
          // A stop-limit's limit price under its stop price.
          <Text span size="sm" style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
            {rate(o, o.price)}
            <Text span size="xs" c="dimmed" display="block" title={t('Limit Price')} data-testid={`limit-${o.id}`}>
              {t('Limit')} {rate(o, o.limit_price)}
            </Text>
          </Text>
        ),
    },
    {
      key: 'current',
      label: t('Current Price'),
      numeric: true,
      render: (o) => (
        <LivePrice
          instrument={o.instrument}
          side={o.type}
          at="open"
          digits={digitsOf(o.instrument)}
          testId={`current-${o.id}`}
        />
      ),
    },
    {
      key: 'sl',
      label: t('SL'),
      numeric: true,
      render: (o) => <span data-testid={`sl-${o.id}`}>{rate(o, o.loss)}</span>,
    },
    {
      key: 'tp',
      label: t('TP'),
      numeric: true,
      render: (o) => <span data-testid={`tp-${o.id}`}>{rate(o, o.profit)}</span>,
    },
    { key: 'expiry', label: t('Expiry'), render: (o) => <ExpiryCell order={o} /> },
    { key: 'status', label: t('Status'), render: (o) => <PendingStatusCell order={o} rows={rows} /> },
    {
      key: 'actions',
      label: t('Actions'),
      render: (o) => o.status === 'pending' && <PendingActions order={o} canLink={canLink} {...actions} />,
    },
  ];
  return (
    <ResponsiveList
      rows={rows}
      columns={columns}
      card={(o) => (
        <PendingOrderCard
          order={o}
          rows={rows}
          digits={digitsOf(o.instrument)}
          amount={amountText(o.amount, o.instrument, o.kind)}
          canLink={canLink}
          {...actions}
        />
      )}
      rowKey={(o) => o.id}
      rowTestId={(o) => `pending-${o.id}`}
      rowTitle={(o) => formatOrderTime(o.created_at)}
      tableId={tableKey}
      emptyText={emptyText}
      cardsTestId="pending-cards"
    />
  );
}
