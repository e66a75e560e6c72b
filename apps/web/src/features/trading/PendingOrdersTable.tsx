import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { dec, formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { scrollBoxStyle, stickyActionsStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';
import { PendingActions, type PendingOrdersTableProps } from './PendingActions.tsx';
import { PendingOrderCards } from './PendingOrderCards.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';

export type { PendingOrdersTableProps };

const nowrap = { whiteSpace: 'nowrap' } as const;
const NUMERIC = new Set(['amount', 'price', 'limit', 'levels']);

/** The wallet's waiting orders; on a phone (up to 48em) cards instead. */
export function PendingOrdersTable(props: PendingOrdersTableProps) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  return phone ? <PendingOrderCards {...props} /> : <PendingOrdersWide {...props} />;
}

function PendingOrdersWide({ rows, digitsOf, emptyText, ...actions }: PendingOrdersTableProps) {
  const { t } = useTranslation();
  const rate = (o: PendingOrderDto, v: string | null) => rateText(v, digitsOf(o.instrument));
  const columns: Array<{ key: string; label: string; cell: (o: PendingOrderDto) => ReactNode }> = [
    {
      key: 'type',
      label: t('Type'),
      cell: (o) => (
        <Text span size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'} style={nowrap}>
          {t(pendingTypeLabel(o))}
        </Text>
      ),
    },
    {
      key: 'instrument',
      label: t('Instrument'),
      cell: (o) => (
        <Text span size="sm" fw={600} style={nowrap}>
          {instrumentLabel(o.instrument)}
        </Text>
      ),
    },
    { key: 'amount', label: t('Amount'), cell: (o) => dec(o.amount).toString() },
    { key: 'price', label: t('Price'), cell: (o) => rate(o, o.price) },
    { key: 'limit', label: t('Limit Price'), cell: (o) => rate(o, o.limit_price) },
    // Stop-loss over take-profit in one column, so the whole row fits beside the instrument list.
    {
      key: 'levels',
      label: `${t('SL')} / ${t('TP')}`,
      cell: (o) => (
        <Text span size="sm" style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
          <span data-testid={`sl-${o.id}`}>{rate(o, o.loss)}</span>
          <Text span size="sm" c="dimmed" display="block" data-testid={`tp-${o.id}`}>
            {rate(o, o.profit)}
          </Text>
        </Text>
      ),
    },
    { key: 'expiry', label: t('Expiry'), cell: (o) => <ExpiryCell order={o} /> },
    { key: 'status', label: t('Status'), cell: (o) => <PendingStatusCell order={o} rows={rows} /> },
    {
      key: 'actions',
      label: t('Actions'),
      cell: (o) =>
        o.status === 'pending' && (
          <PendingActions order={o} canLink={rows.filter((r) => r.oco_id === null).length > 1} {...actions} />
        ),
    },
  ];
  const style = (key: string) =>
    key === 'actions' ? stickyActionsStyle : NUMERIC.has(key) ? { textAlign: 'right' as const } : undefined;
  return (
    <Table.ScrollContainer minWidth={900} style={scrollBoxStyle}>
      <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} fz="sm">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} style={{ ...nowrap, ...style(c.key) }}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody style={{ fontVariantNumeric: 'tabular-nums' }}>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text ta="center" c="dimmed" py="md" style={stickyMessageStyle}>
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((o) => (
            <Table.Tr key={o.id} data-testid={`pending-${o.id}`} title={formatOrderTime(o.created_at)}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={style(c.key)}>
                  {c.cell(o)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
