import { useCallback, useMemo, useState } from 'react';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, type MoneyRecordDto } from '@platform/domain';
import { DataTable, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { BankSummary, ReviewStatusChip, gatewayLabel, walletMoney } from '../money/shared.tsx';
import { withdrawColumns } from '../money/withdraws/withdrawColumns.tsx';
import { LivePlProvider, useFloatingPl, useLiveTradePl } from '../trades/liveTradePl.tsx';

/** A trade as the back office lists it (back-office spec §3 Trade). */
export interface AdminTradeRow {
  id: number;
  user?: { id: number; email: string };
  balance?: { mode: string; currency: string };
  type: string;
  instrument: string;
  open_rate: string | null;
  close_rate: string | null;
  spread: string | null;
  margin_used: string | null;
  pro_loss: string | null;
  /** An open trade's floating P/L from the risk engine. */
  live_pl?: string | null;
  profit: string | null;
  loss: string | null;
  leverage: number | null;
  created_at: string;
  close_time: string | null;
}

const signed = (value: string | null, currency?: string) => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return (
    <Text span size="sm" c={n > 0 ? 'green' : 'red'}>
      {currency ? formatMoney(value, currency) : value}
    </Text>
  );
};

/** PRO/LOSS: booked once closed; while open, the floating P/L the risk engine sends (in italics). */
function TradePl({ trade }: { trade: AdminTradeRow }) {
  const floating = useFloatingPl(trade);
  if (trade.close_time !== null) return signed(trade.pro_loss, trade.balance?.currency) ?? '-';
  if (floating === null) return '-';
  return <i>{signed(floating, trade.balance?.currency)}</i>;
}

/**
 * Trades tab: the customer's trades (/admin/trades/api/all/{userId}), no search, open ones with their live floating
 * P/L; editing them is the Trades screen's. Spread, levels and leverage start hidden (the column chooser shows them).
 */
export function CustomerTradesTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<readonly AdminTradeRow[]>([]);
  const onRowsChange = useCallback((r: readonly AdminTradeRow[]) => setRows(r), []);
  const livePl = useLiveTradePl(rows);
  const columns = useMemo<DataTableColumn<AdminTradeRow>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'balance.mode',
        label: t('USER'),
        render: (r) => (
          <>
            <Text span size="sm">
              {r.user?.email}
            </Text>{' '}
            {r.balance && (
              <Badge size="xs" color={r.balance.mode === 'demo' ? 'yellow' : 'blue'}>
                {t(r.balance.mode === 'demo' ? 'Demo' : 'Real')}
              </Badge>
            )}
          </>
        ),
      },
      { key: 'type', label: t('TYPE'), sortable: true, render: (r) => t(r.type === 'buy' ? 'Buy' : 'Sell') },
      { key: 'instrument', label: t('INSTRUMENT'), sortable: true },
      { key: 'open_rate', label: t('OPEN RATE'), sortable: true },
      { key: 'close_rate', label: t('CLOSE RATE'), sortable: true },
      { key: 'spread', label: t('SPREAD'), sortable: true, hidden: true, render: (r) => signed(r.spread) },
      { key: 'margin_used', label: t('MARGIN USED'), sortable: true },
      { key: 'pro_loss', label: t('PRO/LOSS'), sortable: true, render: (r) => <TradePl trade={r} /> },
      { key: 'profit', label: t('TAKE PROFIT'), hidden: true },
      { key: 'loss', label: t('STOP LOSS'), hidden: true },
      { key: 'leverage', label: t('LEVERAGE'), sortable: true, hidden: true },
      {
        key: 'close_time',
        label: t('STATUS'),
        render: (r) =>
          r.close_time ? <Badge color="red">{t('Closed')}</Badge> : <Badge color="green">{t('Open')}</Badge>,
      },
    ],
    [t],
  );
  return (
    <LivePlProvider value={livePl}>
      <DataTable<AdminTradeRow>
        url={`/admin/trades/api/all/${userId}`}
        columns={columns}
        searchable={false}
        onRowsChange={onRowsChange}
      />
    </LivePlProvider>
  );
}

/** Deposits tab: the customer's deposit history, no search. */
export function CustomerDepositsTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<MoneyRecordDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'gateway', label: t('GATEWAY'), sortable: true, render: (r) => gatewayLabel(r.gateway) },
      {
        key: 'description',
        label: t('DESCRIPTION'),
        render: (r) => (r.formattedDescription ? <BankSummary bank={r.formattedDescription} /> : r.description),
      },
      { key: 'reference', label: t('REFERENCE') },
      { key: 'amount', label: t('AMOUNT'), sortable: true, render: (r) => walletMoney(r, r.amount) },
      { key: 'fee', label: t('FEE'), sortable: true, render: (r) => walletMoney(r, r.fee) },
      { key: 'total', label: t('TOTAL'), sortable: true, render: (r) => walletMoney(r, r.total) },
      { key: 'status', label: t('STATUS'), sortable: true, render: (r) => <ReviewStatusChip status={r.status} /> },
      { key: 'created_at', label: t('DATE'), sortable: true, type: 'date' },
    ],
    [t],
  );
  return (
    <DataTable<MoneyRecordDto> url={`/admin/deposits/api/history/${userId}`} columns={columns} searchable={false} />
  );
}

/** Withdraws tab: the customer's withdrawal history with decline reasons, no search. */
export function CustomerWithdrawsTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<MoneyRecordDto>[]>(() => {
    const c = withdrawColumns(t);
    return [c.id, c.gateway, c.description, c.declineReason, c.amount, c.fee, c.total, c.status, c.date(t('DATE'))];
  }, [t]);
  return (
    <DataTable<MoneyRecordDto> url={`/admin/withdraws/api/history/${userId}`} columns={columns} searchable={false} />
  );
}
