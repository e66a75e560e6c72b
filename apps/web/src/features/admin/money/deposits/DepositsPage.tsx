import { useMemo } from 'react';
import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MoneyRecordDto } from '@platform/domain';
import { apiPost } from '../../../../api/client.ts';
import { DataTable, useRefreshList, type DataTableColumn } from '../../../../ui/data-table/index.ts';
import {
  BankSummary,
  ReviewActions,
  ReviewStatusChip,
  UserEmailLink,
  gatewayLabel,
  useReview,
  walletMoney,
} from '../shared.tsx';

export const DEPOSITS_URL = '/admin/deposits/api/history';

/** Deposits (/admin/deposits): every deposit, pending ones with Approve and Decline (back-office spec §2). */
export function DepositsPage() {
  const { t } = useTranslation();
  const refresh = useRefreshList(DEPOSITS_URL);
  const review = useReview(refresh);

  const columns = useMemo<DataTableColumn<MoneyRecordDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'user.email',
        label: t('USER'),
        sortable: true,
        truncate: 160,
        render: (r) => <UserEmailLink user={r.user} />,
      },
      { key: 'gateway', label: t('GATEWAY'), sortable: true, render: (r) => gatewayLabel(r.gateway) },
      {
        key: 'description',
        label: t('DESCRIPTION'),
        hidden: true,
        render: (r) => (r.formattedDescription ? <BankSummary bank={r.formattedDescription} /> : r.description),
      },
      { key: 'reference', label: t('REFERENCE'), truncate: 110 },
      {
        key: 'proof',
        label: t('PROOF'),
        render: (r) =>
          r.proof ? (
            <Anchor href={r.proof} target="_blank" rel="noopener noreferrer" size="sm">
              {t('View')}
            </Anchor>
          ) : null,
      },
      { key: 'amount', label: t('AMOUNT'), sortable: true, render: (r) => walletMoney(r, r.amount) },
      { key: 'fee', label: t('FEE'), sortable: true, hidden: true, render: (r) => walletMoney(r, r.fee) },
      { key: 'total', label: t('TOTAL'), sortable: true, render: (r) => walletMoney(r, r.total) },
      { key: 'status', label: t('STATUS'), sortable: true, render: (r) => <ReviewStatusChip status={r.status} /> },
      // The day above the time, so the review buttons beside it leave every column in view at 1440 px.
      { key: 'created_at', label: t('DATE'), sortable: true, type: 'date', stacked: true },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (r) =>
          r.status === 'pending' ? (
            <ReviewActions
              approveMessage={
                r.awaiting_proof
                  ? t('The client has not sent the transfer details and proof yet. Approve anyway?')
                  : t('Are you sure to approve this deposit?')
              }
              // Without the proof the server approves only with an override reason, which it audits.
              approveReasonLabel={r.awaiting_proof ? t('Override reason') : undefined}
              declineMessage={t('Are you sure to decline this deposit?')}
              onApprove={(reason) =>
                review(
                  () =>
                    apiPost(
                      `/admin/deposits/${r.id}/approve`,
                      r.awaiting_proof ? { overrideReason: reason } : undefined,
                    ),
                  t('Deposit approved successfully'),
                )
              }
              // The spec reuses the withdraw text here; we say what happened (docs/spec-deviations.md).
              onDecline={() =>
                review(() => apiPost(`/admin/deposits/${r.id}/decline`), t('Deposit declined successfully'))
              }
            />
          ) : null,
      },
    ],
    [t, review],
  );

  return <DataTable<MoneyRecordDto> url={DEPOSITS_URL} columns={columns} exportable />;
}
