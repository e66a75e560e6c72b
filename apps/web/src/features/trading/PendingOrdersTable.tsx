import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { PendingActions, type PendingOrdersTableProps } from './PendingActions.tsx';
import { PendingOrderCard } from './PendingOrderCard.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';

export type { PendingOrdersTableProps };

const nowrap = { whiteSpace: 'nowrap' } as const;

/** The wallet's waiting orders; on a phone (up to 48em) cards instead. */
export function PendingOrdersTable({ rows, digitsOf, emptyText, ...actions }: PendingOrdersTableProps) {
  const { t } = useTranslation();
  const rate = (o: PendingOrderDto, v: string | null) => rateText(v, digitsOf(o.instrument));
  const canLink = rows.filter((r) => r.oco_id === null).length > 1;
  const columns: ListColumn<PendingOrderDto>[] = [
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
      key: 'instrument',
      label: t('Instrument'),
      render: (o) => (
        <Text span size="sm" fw={600} style={nowrap}>
          {instrumentLabel(o.instrument)}
        </Text>
      ),
    },
    { key: 'amount', label: t('Amount'), numeric: true, render: (o) => dec(o.amount).toString() },
    { key: 'price', label: t('Price'), numeric: true, render: (o) => rate(o, o.price) },
    { key: 'limit', label: t('Limit Price'), numeric: true, render: (o) => rate(o, o.limit_price) },
    // Stop-loss over take-profit in one column, so the whole row fits beside the instrument list.
    {
      key: 'levels',
      label: `${t('SL')} / ${t('TP')}`,
      numeric: true,
      render: (o) => (
        <Text span size="sm" style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
          <span data-testid={`sl-${o.id}`}>{rate(o, o.loss)}</span>
          <Text span size="sm" c="dimmed" display="block" data-testid={`tp-${o.id}`}>
            {rate(o, o.profit)}
          </Text>
        </Text>
      ),
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
        <PendingOrderCard order={o} rows={rows} digits={digitsOf(o.instrument)} canLink={canLink} {...actions} />
      )}
      rowKey={(o) => o.id}
      rowTestId={(o) => `pending-${o.id}`}
      rowTitle={(o) => formatOrderTime(o.created_at)}
      emptyText={emptyText}
      cardsTestId="pending-cards"
    />
  );
}
