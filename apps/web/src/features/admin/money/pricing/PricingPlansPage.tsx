import { useCallback, useMemo, useState } from 'react';
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, formatMoney, type PricingPlanDto } from '@platform/domain';
import { ApiError, apiDelete } from '../../../../api/client.ts';
import { toastError, toastSuccess } from '../../../../ui/toast.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  useRefreshList,
  type DataTableColumn,
} from '../../../../ui/data-table/index.ts';
import { PricingPlanForm } from './PricingPlanForm.tsx';

export const PRICING_PLANS_URL = '/dashboard/pricing';

type Editing = { mode: 'add' } | { mode: 'edit'; plan: PricingPlanDto } | null;

/** Pricing Plan (/admin/pricing): the plans customers subscribe to, with add, edit and delete (back-office spec §2). */
export function PricingPlansPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = useRefreshList(PRICING_PLANS_URL);

  const remove = useCallback(
    async (plan: PricingPlanDto) => {
      try {
        await apiDelete(`/admin/pricing/${plan.id}`);
      } catch (err) {
        // A refusal says why (a plan with subscribers is kept); anything else is generic.
        toastError(err instanceof ApiError && err.status < 500 && err.message ? err.message : t(GENERIC_ERROR));
        return;
      }
      toastSuccess(t('Plan deleted successfully'));
      await refresh();
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<PricingPlanDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'name', label: t('NAME'), sortable: true },
      { key: 'price', label: t('PRICE'), sortable: true, render: (p) => formatMoney(p.price, p.currency) },
      { key: 'forex_leverage', label: t('FOREX LEV.'), sortable: true },
      { key: 'commodity_leverage', label: t('COMM. LEV.'), sortable: true },
      { key: 'stock_leverage', label: t('STOCK LEV.'), sortable: true },
      { key: 'index_leverage', label: t('INDEX LEV.'), sortable: true },
      { key: 'crypto_leverage', label: t('CRYPTO LEV.'), sortable: true },
      { key: 'subscribers', label: t('SUBSCRIBERS'), sortable: true },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (p) => (
          <EditDeleteActions
            onEdit={() => setEditing({ mode: 'edit', plan: p })}
            deleteMessage={t('Are you sure to delete this plan?')}
            onDelete={() => remove(p)}
          />
        ),
      },
    ],
    [t, remove],
  );

  const close = () => setEditing(null);

  return (
    <>
      <DataTable<PricingPlanDto>
        url={PRICING_PLANS_URL}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing({ mode: 'add' })} />}
      />
      <Modal
        opened={editing !== null}
        onClose={close}
        size="lg"
        title={editing?.mode === 'edit' ? t('Edit Plan') : t('Add Plan')}
      >
        {editing && (
          <PricingPlanForm
            key={editing.mode === 'edit' ? editing.plan.id : 'new'}
            plan={editing.mode === 'edit' ? editing.plan : undefined}
            onCancel={close}
            onSaved={() => {
              close();
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}
