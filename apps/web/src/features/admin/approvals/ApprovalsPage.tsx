import { useMemo, useState } from 'react';
import { Button, Group, SegmentedControl, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, type ApprovalDto, type ApprovalStatus } from '@platform/domain';
import { useCurrentUser } from '../../../api/hooks.ts';
import { DataTable, useRefreshList, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { ApprovalDetail, KIND_LABELS } from './ApprovalDetail.tsx';
import { ApprovalSettingsModal } from './ApprovalSettingsModal.tsx';

export const APPROVALS_URL = '/admin/approvals';
const PENDING_REFRESH_MS = 15_000;

/** The amount in the site currency (what the threshold compares), or the action's own currency when no rate was found. */
export const amountText = (r: ApprovalDto): string =>
  r.amount_site !== null
    ? formatMoney(r.amount_site, r.site_currency)
    : r.amount !== null && r.currency
      ? formatMoney(r.amount, r.currency)
      : '–';

/**
 * Approvals (/admin/approvals): the four-eyes requests by status, newest first. A row opens its detail (before and
 * after, amounts, reason) with Approve and Reject for a second staff member; admins also set the thresholds here.
 */
export function ApprovalsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser().data?.user;
  const [status, setStatus] = useState<ApprovalStatus>('pending');
  const [open, setOpen] = useState<ApprovalDto | null>(null);
  const [settings, setSettings] = useState(false);
  const filters = useMemo(() => ({ status }), [status]);
  const refresh = useRefreshList(APPROVALS_URL);

  const columns = useMemo<DataTableColumn<ApprovalDto>[]>(
    () => [
      { key: 'id', label: t('ID'), width: 70 },
      { key: 'kind', label: t('ACTION'), render: (r) => t(KIND_LABELS[r.kind]) },
      { key: 'summary', label: t('REQUEST'), truncate: 120 },
      { key: 'amount_site', label: t('AMOUNT'), render: amountText },
      { key: 'requested_by', label: t('REQUESTED BY'), render: (r) => r.requested_by.full_name },
      { key: 'created_at', label: t('DATE'), type: 'date' },
      ...(status === 'pending'
        ? []
        : [
            {
              key: 'decided_by',
              label: t('DECIDED BY'),
              render: (r: ApprovalDto) => r.decided_by?.full_name ?? '',
            },
          ]),
      {
        key: 'open',
        label: '',
        truncate: false,
        render: (r) => (
          <Button size="compact-xs" variant="light" onClick={() => setOpen(r)}>
            {r.can_decide ? t('Review') : t('View')}
          </Button>
        ),
      },
    ],
    [t, status],
  );

  return (
    <>
      <DataTable<ApprovalDto>
        url={APPROVALS_URL}
        columns={columns}
        filters={filters}
        rowKey={(r) => r.id}
        searchable={false}
        // New requests arrive from other staff: the pending list follows them without a reload.
        refreshMs={status === 'pending' ? PENDING_REFRESH_MS : undefined}
        toolbar={
          <Group gap="sm">
            <Text size="xs" c="dimmed">
              {t('Actions above a threshold wait here for a second staff member.')}
            </Text>
            <SegmentedControl
              aria-label={t('Status')}
              size="xs"
              value={status}
              onChange={(v) => setStatus(v as ApprovalStatus)}
              data={[
                { value: 'pending', label: t('Pending') },
                { value: 'approved', label: t('Approved') },
                { value: 'rejected', label: t('Rejected') },
              ]}
            />
            {me?.role_id === 1 ? (
              <Button size="xs" variant="default" onClick={() => setSettings(true)}>
                {t('Thresholds')}
              </Button>
            ) : null}
          </Group>
        }
      />
      {open ? (
        <ApprovalDetail
          approval={open}
          onClose={() => setOpen(null)}
          onDecided={async () => {
            setOpen(null);
            await refresh();
          }}
        />
      ) : null}
      {settings ? <ApprovalSettingsModal onClose={() => setSettings(false)} /> : null}
    </>
  );
}
