import { lazy, Suspense, useState } from 'react';
import { Badge, Group, LoadingOverlay, Pagination, Paper, Tabs } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pageCount, type MessageResponse, type OrderCloseRequest, type OrderDto } from '@platform/domain';
import { apiPost } from '../../api/client.ts';
import { toastSuccess } from '../../ui/toast.ts';
import { refreshTrading, useOrdersPage } from './api.ts';
import { PositionsTable } from './PositionsTable.tsx';
import type { ProtectionKind } from './ProtectionDialog.tsx';
import { useLivePositions } from './useLivePositions.ts';

// Loaded when a position's stop-loss or take-profit is first edited.
const ProtectionDialog = lazy(() => import('./ProtectionDialog.tsx').then((m) => ({ default: m.ProtectionDialog })));

const PAGE_SIZE = 15;

export interface PositionsPanelProps {
  currency: string;
  digitsOf: (instrument: string) => number | undefined;
  /** Fill the height of its container (the terminal layout) and scroll inside it. */
  fill?: boolean;
}

/** Tabs "All Positions" (paged history of the wallet) and "Opened Positions" (live) below the chart. */
export function PositionsPanel({ currency, digitsOf, fill = false }: PositionsPanelProps) {
  const live = useLivePositions();
  const { t } = useTranslation();
  const client = useQueryClient();
  const [tab, setTab] = useState<string | null>('open');
  const [page, setPage] = useState(1);
  const [protect, setProtect] = useState<{ order: OrderDto; kind: ProtectionKind } | null>(null);
  const all = useOrdersPage(page, PAGE_SIZE);

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
        <Tabs.List mb="xs">
          <Tabs.Tab value="all">{t('All Positions')}</Tabs.Tab>
          <Tabs.Tab
            value="open"
            rightSection={
              live.orders.length > 0 ? (
                <Badge size="xs" circle variant="filled">
                  {live.orders.length}
                </Badge>
              ) : null
            }
          >
            {t('Opened Positions')}
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
    </Paper>
  );
}
