import { useState } from 'react';
import { Badge, Group, LoadingOverlay, Pagination, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatOrderTime, pageCount } from '@platform/domain';
import { CardFigure, ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { historyRow, type HistoryRow } from './historyRows.ts';
import { useOrderHistory } from './pendingApi.ts';
import { Amount, amountWithUnit, Ticket, When } from './TableCells.tsx';
import { useAmountText, useTableKey } from './terminalTables.ts';
import { TradeCardHeader } from './TradeCardHeader.tsx';

const PAGE_SIZE = 15;
const nowrap = { whiteSpace: 'nowrap' } as const;

export interface HistoryPanelProps {
  currency: string;
  digitsOf: (instrument: string) => number | undefined;
}

/**
 * The History tab: closed deals (partial closes included) and filled, cancelled or expired pending orders, paged; a
 * column chooser remembered per user.
 */
export function HistoryPanel({ currency, digitsOf }: HistoryPanelProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useOrderHistory(page, PAGE_SIZE);
  const entries = history.data?.data ?? [];
  const amountText = useAmountText(entries.map((e) => (e.entry === 'deal' ? e.deal.kind : e.order.kind)));
  const tableKey = useTableKey('history');
  const rows = entries.map((e) => historyRow(e, digitsOf, currency, t, amountText));
  const empty = history.isPending ? t('Loading...') : history.isError ? t('Something went wrong') : t('No history yet');
  return (
    <Stack gap="sm" pos="relative" data-testid="history-panel">
      <LoadingOverlay visible={history.isFetching && !history.isPending} loaderProps={{ size: 'sm' }} />
      <ResponsiveList
        rows={rows}
        columns={historyColumns(t)}
        card={(r) => <HistoryCard row={r} />}
        rowKey={(r) => r.key}
        rowTestId={(r) => `history-${r.key}`}
        emptyText={empty}
        cardsTestId="history-cards"
        tableId={tableKey}
      />
      <Group justify="flex-end">
        <Pagination
          size="sm"
          total={pageCount(history.data?.meta.total, history.data?.meta.per_page ?? PAGE_SIZE)}
          value={page}
          onChange={setPage}
        />
      </Group>
    </Stack>
  );
}

function StatusBadge({ row }: { row: HistoryRow }) {
  return (
    <Badge color={row.status.color} variant="light" miw="max-content">
      {row.status.label}
    </Badge>
  );
}

/** The status chip with why and what it was part of under it, so the table needs no column of its own for them. */
function StatusCell({ row }: { row: HistoryRow }) {
  return (
    <Stack gap={2} align="flex-start">
      <StatusBadge row={row} />
      {row.detail && (
        <Text size="xs" c="dimmed" maw={200} lh={1.25}>
          {row.detail}
        </Text>
      )}
    </Stack>
  );
}

const sideColor = (r: HistoryRow) => (r.side === 'buy' ? 'teal' : 'red');

function historyColumns(t: TFunction): ListColumn<HistoryRow>[] {
  const line = (text: string, fw?: number, c?: string) => (
    <Text span size="sm" fw={fw} c={c} style={nowrap}>
      {text}
    </Text>
  );
  return [
    {
      key: 'ticket',
      label: t('Ticket'),
      always: true,
      render: (r) => <Ticket id={r.ticket} testId={`ticket-${r.key}`} />,
    },
    { key: 'openTime', label: t('Open Time'), render: (r) => <When value={r.openTime} /> },
    { key: 'closeTime', label: t('Close Time'), render: (r) => <When value={r.closeTime} /> },
    { key: 'instrument', label: t('Instrument'), always: true, render: (r) => line(r.instrument, 600) },
    { key: 'type', label: t('Type'), render: (r) => line(r.type, 700, sideColor(r)) },
    {
      key: 'amount',
      label: t('Amount'),
      numeric: true,
      render: (r) => <Amount value={r.amount} testId={`amount-${r.key}`} />,
    },
    { key: 'openPrice', label: t('Open Rate'), numeric: true, render: (r) => line(r.openPrice) },
    { key: 'closePrice', label: t('Close Rate'), numeric: true, render: (r) => line(r.closePrice) },
    {
      key: 'swap',
      label: t('Swap'),
      numeric: true,
      render: (r) => line(r.swap?.text ?? '-', undefined, r.swap?.color),
    },
    {
      key: 'commission',
      label: t('Commission'),
      numeric: true,
      render: (r) => line(r.commission?.text ?? '-', undefined, r.commission?.color),
    },
    {
      key: 'pl',
      label: t('P/L'),
      numeric: true,
      render: (r) => line(r.profitLoss?.text ?? '-', 600, r.profitLoss?.color),
    },
    { key: 'status', label: t('Status'), render: (r) => <StatusCell row={r} /> },
  ];
}

/** A deal's swap and commission on its card (a pending order has neither). */
function HistoryCharges({ row }: { row: HistoryRow }) {
  const { t } = useTranslation();
  const charges = [
    { key: 'swap', label: t('Swap'), figure: row.swap },
    { key: 'commission', label: t('Commission'), figure: row.commission },
  ].filter((c) => c.figure !== null);
  if (charges.length === 0) return null;
  return (
    <Group gap="md" mt={6}>
      {charges.map((c) => (
        <Text key={c.key} size="xs" c="dimmed" style={nowrap}>
          {c.label}{' '}
          <Text span size="xs" fw={600} c={c.figure?.color}>
            {c.figure?.text}
          </Text>
        </Text>
      ))}
    </Group>
  );
}

/** A history line on a phone: instrument, side and time over its status, then amount, price and P/L. */
function HistoryCard({ row: r }: { row: HistoryRow }) {
  const { t } = useTranslation();
  return (
    <>
      <TradeCardHeader
        instrument={r.instrument}
        side={r.side}
        sideLabel={r.type}
        time={formatOrderTime(r.time)}
        ticket={{ id: r.ticket, testId: `ticket-${r.key}` }}
        aside={<StatusBadge row={r} />}
      />
      <SimpleGrid cols={3} spacing="xs" mt="xs">
        <CardFigure label={t('Amount')} value={amountWithUnit(r.amount, t('lot'))} testId={`amount-${r.key}`} />
        <CardFigure label={t('Price')} value={r.price} />
        <CardFigure label={t('P/L')} value={r.profitLoss?.text ?? '-'} color={r.profitLoss?.color} />
      </SimpleGrid>
      <HistoryCharges row={r} />
      {r.detail && (
        <Text size="xs" c="dimmed" mt={6}>
          {r.detail}
        </Text>
      )}
    </>
  );
}
