import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminKycDto, DeclineRequest } from '@platform/domain';
import { apiPost } from '../../../../api/client.ts';
import { DataTable, useRefreshList, type DataTableColumn } from '../../../../ui/data-table/index.ts';
import { ReviewActions, ReviewStatusChip, useReview } from '../shared.tsx';
import { DocumentFileButtons, DocumentViewer, hasKycFiles, type ViewedFile } from './DocumentViewer.tsx';

export const KYC_URL = '/admin/kyc/api';

const DOCUMENT_TYPES: Record<AdminKycDto['type'], string> = {
  national_id: 'National ID',
  passport: 'Passport',
  driver_license: "Driver's License",
};

/** KYC Documents (/admin/kyc): submitted identity documents to view, approve or decline (back-office spec §2). */
export function KycPage() {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<ViewedFile | null>(null);
  const refresh = useRefreshList(KYC_URL);
  const review = useReview(refresh);

  const columns = useMemo<DataTableColumn<AdminKycDto>[]>(
    () => [
      { key: 'type', label: t('DOCUMENT TYPE'), sortable: true, render: (d) => t(DOCUMENT_TYPES[d.type] ?? d.type) },
      { key: 'user.full_name', label: t('FULL NAME'), sortable: true },
      { key: 'user.email', label: t('CLIENT EMAIL'), sortable: true },
      { key: 'status', label: t('STATUS'), sortable: true, render: (d) => <ReviewStatusChip status={d.status} /> },
      { key: 'created_at', label: t('UPLOAD DATE'), sortable: true, type: 'date', stacked: true },
      {
        key: 'view',
        label: t('VIEW'),
        render: (d) => (hasKycFiles(d) ? <DocumentFileButtons document={d} onView={setViewing} /> : null),
      },
      { key: 'decline_reason', label: t('DECLINE REASON') },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (d) => (
          <ReviewActions
            withReason
            canApprove={d.status !== 'approved'}
            approveMessage={t('Are you sure to approve this document?')}
            declineMessage={t('Are you sure to decline this document?')}
            onApprove={() => review(() => apiPost(`/admin/kyc/${d.id}/approve`), t('Document approved successfully'))}
            onDecline={(reason) => {
              const body: DeclineRequest = { declineReason: reason };
              return review(() => apiPost(`/admin/kyc/${d.id}/decline`, body), t('KYC declined successfully'));
            }}
          />
        ),
      },
    ],
    [t, review],
  );

  return (
    <>
      <DataTable<AdminKycDto> url={KYC_URL} columns={columns} exportable />
      <DocumentViewer file={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
