import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PendingOrderDto } from '@platform/domain';
import { usePendingOrders } from './pendingApi.ts';
import { PendingOrdersTable } from './PendingOrdersTable.tsx';
import { usePendingActions } from './usePendingActions.ts';

// The dialogs load when first opened.
const PendingOrderDialog = lazy(() =>
  import('./PendingOrderDialog.tsx').then((m) => ({ default: m.PendingOrderDialog })),
);
const OcoDialog = lazy(() => import('./OcoDialog.tsx').then((m) => ({ default: m.OcoDialog })));

export interface PendingOrdersPanelProps {
  digitsOf: (instrument: string) => number | undefined;
}

/** The Pending Orders tab: the wallet's waiting orders, live; modify, cancel (confirmed) and link two as OCO. */
export function PendingOrdersPanel({ digitsOf }: PendingOrdersPanelProps) {
  const { t } = useTranslation();
  const list = usePendingOrders();
  const { cancel } = usePendingActions();
  const [modifying, setModifying] = useState<PendingOrderDto | null>(null);
  const [linking, setLinking] = useState<PendingOrderDto | null>(null);
  const rows = (list.data ?? []).filter((o) => o.status === 'pending');

  return (
    <>
      <PendingOrdersTable
        rows={rows}
        digitsOf={digitsOf}
        emptyText={list.isPending ? t('Loading...') : list.isError ? t('Something went wrong') : t('No pending orders')}
        onModify={setModifying}
        // The refusal is toasted by the action; the confirmation just closes.
        onCancel={(o) => cancel.mutateAsync(o.id).catch(() => undefined)}
        onLink={setLinking}
      />
      <Suspense fallback={null}>
        {modifying && (
          <PendingOrderDialog
            order={modifying}
            digits={digitsOf(modifying.instrument) ?? 5}
            onClose={() => setModifying(null)}
          />
        )}
        {linking && <OcoDialog order={linking} orders={rows} digitsOf={digitsOf} onClose={() => setLinking(null)} />}
      </Suspense>
    </>
  );
}
