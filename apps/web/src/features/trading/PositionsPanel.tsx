import { lazy, Suspense, useState } from 'react';
import { Badge, Group, LoadingOverlay, Pagination, Paper, Tabs } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  pageCount,
  type InstrumentDto,
  type MessageResponse,
  type OrderCloseRequest,
  type OrderDto,
} from '@platform/domain';
import { apiPost } from '../../api/client.ts';
import { toastSuccess } from '../../ui/toast.ts';
import { refreshTrading, useOrdersPage } from './api.ts';
import { usePendingOrders } from './pendingApi.ts';
import { PositionsTable } from './PositionsTable.tsx';
import type { ProtectionKind } from './ProtectionDialog.tsx';
import { useLivePositions } from './useLivePositions.ts';

// Loaded when a position's stop-loss or take-profit is first edited.
const ProtectionDialog = lazy(() => import('./ProtectionDialog.tsx').then((m) => ({ default: m.ProtectionDialog })));
const PartialCloseDialog = lazy(() =>
  import('./PartialCloseDialog.tsx').then((m) => ({ default: m.PartialCloseDialog })),
);

// Price alerts are their own area; their panel loads when the Alerts tab is first opened. Pending Orders and History
// load the same way (the pending count of the tab comes with the dashboard), keeping the dashboard's first load small.
const AlertsPanel = lazy(() => import('./alerts/AlertsPanel.tsx').then((m) => ({ default: m.AlertsPanel })));
const PendingOrdersPanel = lazy(() =>
  import('./PendingOrdersPanel.tsx').then((m) => ({ default: m.PendingOrdersPanel })),
);
const HistoryPanel = lazy(() => import('./HistoryPanel.tsx').then((m) => ({ default: m.HistoryPanel })));

const PAGE_SIZE = 15;
const noShrink = { flexShrink: 0, whiteSpace: 'nowrap' } as const;

export interface PositionsPanelProps {
  currency: string;
  digitsOf: (instrument: string) => number | undefined;
  /** The instrument on the chart: the Alerts tab starts on it. */
  instrument?: InstrumentDto;
  /** Fill the height of its container (the terminal layout) and scroll inside it. */
  fill?: boolean;
}

const countBadge = (n: number) =>
  n > 0 ? (
    <Badge size="xs" circle variant="filled">
      {n}
    </Badge>
  ) : null;

/**
 * Tabs below the chart: "All Positions" (paged positions of the wallet), "Opened Positions" (live), Pending Orders,
 * Alerts and History (closed deals and ended pending orders).
 */
export function PositionsPanel({ currency, digitsOf, instrument, fill = false }: PositionsPanelProps) {
  const live = useLivePositions();
  const { t } = useTranslation();
  const client = useQueryClient();
  const [tab, setTab] = useState<string | null>('open');
  const [page, setPage] = useState(1);
  const [protect, setProtect] = useState<{ order: OrderDto; kind: ProtectionKind } | null>(null);
  const [partial, setPartial] = useState<OrderDto | null>(null);
  const all = useOrdersPage(page, PAGE_SIZE);
  const pending = usePendingOrders();
  const pendingCount = (pending.data ?? []).filter((o) => o.status === 'pending').length;

  const close = useMutation({
    mutationFn: (body: OrderCloseRequest) => apiPost<MessageResponse>('/dashboard/orders/close', body),
    onSuccess: () => toastSuccess(t('Order Closed Successfully')),
    // A failed close is not reported (spec §8); the reload shows the position as it really is.
    onSettled: () => void refreshTrading(client),
  });
  const closingId = close.isPending ? Number(close.variables?.orderId) : null;

  const table = (variant: 'all' | 'open', rows: readonly OrderDto[], emptyText: string) => (
    <PositionsTable
      rows={rows}
      variant={variant}
      liveProfitLoss={live.profitLoss}
      currency={currency}
      digitsOf={digitsOf}
      onClosePosition={(o) => close.mutate({ orderId: o.id, instrument: o.instrument })}
      onProtect={(order, kind) => setProtect({ order, kind })}
      onPartialClose={setPartial}
      closingId={closingId}
      emptyText={emptyText}
    />
  );

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      pos="relative"
      h={fill ? '100%' : undefined}
      style={fill ? { overflowY: 'auto' } : undefined}
      data-testid="positions-panel"
    >
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        {/* The tabs scroll sideways on a phone rather than wrapping onto a second line. */}
        <Tabs.List
          mb="xs"
          style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' }}
        >
          <Tabs.Tab value="all" style={noShrink}>
            {t('All Positions')}
          </Tabs.Tab>
          <Tabs.Tab value="open" style={noShrink} rightSection={countBadge(live.orders.length)}>
            {t('Opened Positions')}
          </Tabs.Tab>
          <Tabs.Tab value="pending" style={noShrink} rightSection={countBadge(pendingCount)}>
            {t('Pending Orders')}
          </Tabs.Tab>
          <Tabs.Tab value="alerts" style={noShrink}>
            {t('Alerts')}
          </Tabs.Tab>
          <Tabs.Tab value="history" style={noShrink}>
            {t('History')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="all" pos="relative">
          <LoadingOverlay visible={all.isFetching && !all.isPending} loaderProps={{ size: 'sm' }} />
          {table('all', all.data?.data ?? [], all.isPending ? t('Loading...') : t('No positions yet'))}
          <Group justify="flex-end" mt="sm">
            <Pagination
              size="sm"
              total={pageCount(all.data?.meta.total, all.data?.meta.per_page ?? PAGE_SIZE)}
              value={page}
              onChange={setPage}
            />
          </Group>
        </Tabs.Panel>
        <Tabs.Panel value="open">
          {table('open', live.orders, live.isLoading ? t('Loading...') : t('No open positions'))}
        </Tabs.Panel>
        <Tabs.Panel value="pending">
          <Suspense fallback={null}>
            <PendingOrdersPanel digitsOf={digitsOf} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="alerts">
          <Suspense fallback={null}>
            <AlertsPanel instrument={instrument} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <Suspense fallback={null}>
            <HistoryPanel currency={currency} digitsOf={digitsOf} />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
      {protect && (
        <Suspense fallback={null}>
          <ProtectionDialog
            order={protect.order}
            kind={protect.kind}
            digits={digitsOf(protect.order.instrument) ?? 5}
            onClose={() => setProtect(null)}
          />
        </Suspense>
      )}
      {partial && (
        <Suspense fallback={null}>
          <PartialCloseDialog
            order={partial}
            digits={digitsOf(partial.instrument) ?? 5}
            onClose={() => setPartial(null)}
          />
        </Suspense>
      )}
    </Paper>
  );
}
