import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  type ApprovalDecisionResponse,
  type ApprovalDto,
  type ApprovalKind,
  type ApprovalRejectRequest,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

export const KIND_LABELS: Record<ApprovalKind, string> = {
  withdrawal: 'Withdrawal payout',
  balance_adjustment: 'Balance adjustment',
  deposit: 'Deposit approval',
  trade_edit: 'Trade edit',
  trade_void: 'Trade void',
  plan_change: 'Pricing plan change',
  gateway_secrets: 'Gateway secrets',
};

const STATUS_COLORS = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

const show = (v: unknown): string =>
  v === null || v === undefined
    ? '–'
    : Array.isArray(v)
      ? v.join(', ')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** Before and after side by side, one row per field either names. */
function BeforeAfter({ before, after }: Pick<ApprovalDto, 'before' | 'after'>) {
  const { t } = useTranslation();
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    <Table withTableBorder fz="sm" aria-label={t('Before and after')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th />
          <Table.Th>{t('Before')}</Table.Th>
          <Table.Th>{t('After')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k}>
            <Table.Td c="dimmed">{k}</Table.Td>
            <Table.Td>{show(before?.[k])}</Table.Td>
            <Table.Td fw={show(before?.[k]) !== show(after?.[k]) ? 600 : undefined}>{show(after?.[k])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One request: who asked what, before and after, and Approve / Reject (with a reason) for a second staff member. */
export function ApprovalDetail({
  approval: a,
  onClose,
  onDecided,
}: {
  approval: ApprovalDto;
  onClose: () => void;
  onDecided: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [rejecting, setRejecting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(a.last_error);

  const decide = async (path: 'approve' | 'reject') => {
    setBusy(true);
    try {
      const body: ApprovalRejectRequest | undefined = path === 'reject' ? { reason } : undefined;
      const res = await apiPost<ApprovalDecisionResponse>(`/admin/approvals/${a.id}/${path}`, body);
      toastSuccess(t(res.message));
      await onDecided();
    } catch (err) {
      const message = errorMessage(err, t('Something went wrong'));
      setFailure(message);
      toastError(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`${t(KIND_LABELS[a.kind])} #${a.id}`} size="lg">
      <Stack gap="sm">
        <Group gap="xs">
          <Badge color={STATUS_COLORS[a.status]}>
            {t(a.status === 'pending' ? 'Pending' : a.status === 'approved' ? 'Approved' : 'Rejected')}
          </Badge>
          <Text size="sm">{a.summary}</Text>
        </Group>
        <Text size="sm">
          {t('Requested by')}: <b>{a.requested_by.full_name}</b> ({a.requested_by.email}),{' '}
          {new Date(a.created_at).toLocaleString()}
        </Text>
        {a.target_user ? (
          <Text size="sm">
            {t('Customer')}:{' '}
            <Anchor component={Link} to={`/admin/customers/edit/${a.target_user.id}`} size="sm">
              {a.target_user.full_name}
            </Anchor>{' '}
            ({a.target_user.email})
          </Text>
        ) : null}
        {a.amount !== null && a.currency ? (
          <Text size="sm">
            {t('Amount')}: {formatMoney(a.amount, a.currency)}
            {a.amount_site !== null && a.currency !== a.site_currency
              ? ` = ${formatMoney(a.amount_site, a.site_currency)}`
              : ''}
            {a.threshold !== null ? ` (${t('threshold')} ${formatMoney(a.threshold, a.site_currency)})` : ''}
          </Text>
        ) : null}
        {a.reason ? (
          <Text size="sm">
            {t('Reason')}: {a.reason}
          </Text>
        ) : null}
        <BeforeAfter before={a.before} after={a.after} />
        {a.decided_by ? (
          <Text size="sm">
            {t(a.status === 'approved' ? 'Approved by' : 'Rejected by')}: <b>{a.decided_by.full_name}</b>
            {a.decided_at ? `, ${new Date(a.decided_at).toLocaleString()}` : ''}
            {a.decision_reason ? ` – ${a.decision_reason}` : ''}
          </Text>
        ) : null}
        {failure && a.status === 'pending' ? (
          <Alert color="orange" title={t('The action could not be done')}>
            {failure}
          </Alert>
        ) : null}
        {a.status === 'pending' && !a.can_decide ? (
          <Alert color="blue">{t('Your own request: a second staff member must approve or reject it.')}</Alert>
        ) : null}
        {a.can_decide ? (
          rejecting ? (
            <Stack gap="xs">
              <Textarea
                label={t('Reason')}
                required
                maxLength={500}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                rows={3}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setRejecting(false)} disabled={busy}>
                  {t('Cancel')}
                </Button>
                <Button color="red" loading={busy} disabled={!reason.trim()} onClick={() => void decide('reject')}>
                  {t('Reject')}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Group justify="flex-end">
              <Button color="red" variant="light" onClick={() => setRejecting(true)} disabled={busy}>
                {t('Reject')}
              </Button>
              <Button color="teal" loading={busy} onClick={() => void decide('approve')}>
                {t('Approve')}
              </Button>
            </Group>
          )
        ) : null}
      </Stack>
    </Modal>
  );
}
