import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeclineRequest, MoneyRecordDto } from '@platform/domain';
import { apiPost } from '../../../../api/client.ts';
import { DataTable, useRefreshList, type DataTableColumn } from '../../../../ui/data-table/index.ts';
import { ReviewActions, useReview } from '../shared.tsx';
import { withdrawColumns } from './withdrawColumns.tsx';

export const PENDING_WITHDRAWS_URL = '/admin/withdraws/api/pending';

/** Pending Withdraws (/admin/withdraws/pending): approve, or decline with an optional reason (back-office spec §2). */
export function PendingWithdrawsPage() {
  const { t } = useTranslation();
  const refresh = useRefreshList(PENDING_WITHDRAWS_URL);
  const review = useReview(refresh);

  const columns = useMemo<DataTableColumn<MoneyRecordDto>[]>(() => {
    const c = withdrawColumns(t);
    return [
      c.id,
      c.user,
      c.gateway,
      c.description,
      c.amount,
      c.fee,
      c.total,
      c.status,
      c.date(t('DATE')),
      {
        key: 'actions',
        label: t('ACTION'),
        render: (r) =>
          r.status === 'pending' ? (
            <ReviewActions
              withReason
              approveMessage={t('Are you sure to approve this withdraw?')}
              declineMessage={t('Are you sure to decline this withdraw?')}
              onApprove={() =>
                review(() => apiPost(`/admin/withdraws/${r.id}/approve`), t('Withdraw approved successfully'))
              }
              onDecline={(reason) => {
                const body: DeclineRequest = { declineReason: reason };
                return review(
                  () => apiPost(`/admin/withdraws/${r.id}/decline`, body),
                  t('Withdraw declined successfully'),
                );
              }}
            />
          ) : null,
      },
    ];
  }, [t, review]);

  return <DataTable<MoneyRecordDto> url={PENDING_WITHDRAWS_URL} columns={columns} exportable />;
}
