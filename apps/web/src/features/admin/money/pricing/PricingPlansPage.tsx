import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, type PricingPlanDto } from '@platform/domain';
import type { ApiError } from '../../../../api/client.ts';
import type { DataTableColumn } from '../../../../ui/data-table/index.ts';
import { ListPage } from '../../../../ui/list-page/index.ts';
import { PricingPlanForm } from './PricingPlanForm.tsx';

export const PRICING_PLANS_URL = '/dashboard/pricing';

const deleteUrl = (plan: PricingPlanDto) => `/admin/pricing/${plan.id}`;
// A refusal says why (a plan with subscribers is kept); anything else is generic.
const isRefusal = (err: ApiError) => err.status < 500 && err.message !== '';

/** Pricing Plan (/admin/pricing): the plans customers subscribe to, with add, edit and delete (back-office spec §2). */
export function PricingPlansPage() {
  const { t } = useTranslation();
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
      {
        key: 'account_type',
        label: t('ACCOUNT'),
        render: (p) => (p.account_type === 'netting' ? t('Netting') : t('Hedging')),
      },
      { key: 'subscribers', label: t('SUBSCRIBERS'), sortable: true },
    ],
    [t],
  );
  return (
    <ListPage<PricingPlanDto>
      url={PRICING_PLANS_URL}
      columns={columns}
      addTitle={t('Add Plan')}
      editTitle={t('Edit Plan')}
      deleteMessage={t('Are you sure to delete this plan?')}
      deleteUrl={deleteUrl}
      deletedMessage={t('Plan deleted successfully')}
      explainRefusal={isRefusal}
      form={({ item, ...props }) => <PricingPlanForm plan={item} {...props} />}
    />
  );
}
