import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Center, FileInput, Group, Loader, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, KYC_DOCUMENT_TYPES, formatDateTime, type KycStatusResponse } from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { queryKeys } from '../../../api/hooks.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { StatusChip } from '../../../ui/data-table/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { moneyKeys, useKycStatus } from '../api.ts';

const TYPE_LABELS: Record<(typeof KYC_DOCUMENT_TYPES)[number], string> = {
  national_id: 'National ID',
  passport: 'Passport',
  driver_license: 'Driver License',
};
const STATUS = {
  pending: ['Pending', 'yellow'],
  approved: ['Approved', 'green'],
  declined: ['Declined', 'red'],
  not_submitted: ['Not submitted', 'gray'],
} as const;
const ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf';
type Side = 'front' | 'back' | 'address';

/**
 * The submission form: document type and the three files. Once sent, a success toast and the page shows the new
 * status (client-area §4 reloads the page; refetching in place keeps the toast on screen).
 */
function KycForm({ onCancel, onSent }: { onCancel?: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [type, setType] = useState<string>('national_id');
  const [files, setFiles] = useState<Record<Side, File | null>>({ front: null, back: null, address: null });
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!type) return setError('Document type is required');
    setSending(true);
    const form = new FormData();
    form.append('type', type);
    for (const side of ['front', 'back', 'address'] as const) if (files[side]) form.append(side, files[side]);
    try {
      const res = await apiPost<{ message: string }>('/kyc', form);
      toastSuccess(res.message);
      await Promise.all([
        client.invalidateQueries({ queryKey: moneyKeys.kyc }),
        client.invalidateQueries({ queryKey: queryKeys.currentUser }),
      ]);
      setSending(false);
      onSent();
    } catch (err) {
      toastError(errorMessage(err, t(GENERIC_ERROR)));
      setSending(false);
    }
  };
  const file = (side: Side, label: string) => (
    <FileInput
      label={t(label)}
      accept={ACCEPT}
      leftSection={<IconUpload size={16} />}
      placeholder={t('JPEG, PNG, WebP or PDF, up to 5 MB')}
      value={files[side]}
      onChange={(f) => setFiles((s) => ({ ...s, [side]: f }))}
      clearable
    />
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md" maw={720}>
        <Select
          label={t('Document Type')}
          required
          data={KYC_DOCUMENT_TYPES.map((v) => ({ value: v, label: t(TYPE_LABELS[v]) }))}
          value={type}
          onChange={(v) => setType(v ?? '')}
          error={error ? t(error) : undefined}
          allowDeselect={false}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {file('front', 'Front')}
          {file('back', 'Back')}
          {file('address', 'Address Proof')}
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={sending}>
            {t('Submit')}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={sending}>
              {t('Cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The "KYC Submitted" card with its status; a declined one shows the reason and Resubmit. */
function SubmittedCard({ kyc, onResubmit }: { kyc: KycStatusResponse; onResubmit: () => void }) {
  const { t } = useTranslation();
  const [label, color] = STATUS[kyc.status];
  return (
    <Stack gap="sm" data-testid="kyc-submitted">
      <Group gap="sm">
        <Text fw={700} size="lg">
          {t('KYC Submitted')}
        </Text>
        <StatusChip color={color} label={t(label)} />
      </Group>
      {kyc.type && (
        <Text size="sm" c="dimmed">
          {t(TYPE_LABELS[kyc.type])} · {formatDateTime(kyc.created_at)}
        </Text>
      )}
      {kyc.status === 'pending' && (
        <Text>{t('Your documents are being reviewed. You will be notified when it is done.')}</Text>
      )}
      {kyc.status === 'approved' && <Text>{t('Your identity is verified.')}</Text>}
      {kyc.status === 'declined' && (
        <>
          <Alert color="red" variant="light" title={t('Decline Reason')}>
            {kyc.declineReason || t('No reason was given.')}
          </Alert>
          <div>
            <Button onClick={onResubmit}>{t('Resubmit')}</Button>
          </div>
        </>
      )}
    </Stack>
  );
}

/** /kyc (client-area §2). */
export function KycPage() {
  const { t } = useTranslation();
  const kyc = useKycStatus();
  const [resubmitting, setResubmitting] = useState(false);
  return (
    <PageCard title={t('KYC')} description={t('Verify your identity to deposit, withdraw and trade with real money.')}>
      {kyc.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : kyc.isError ? (
        <Text c="red">{errorMessage(kyc.error, t(GENERIC_ERROR))}</Text>
      ) : kyc.data.status === 'not_submitted' ? (
        <KycForm onSent={() => setResubmitting(false)} />
      ) : resubmitting ? (
        <KycForm onCancel={() => setResubmitting(false)} onSent={() => setResubmitting(false)} />
      ) : (
        <SubmittedCard kyc={kyc.data} onResubmit={() => setResubmitting(true)} />
      )}
    </PageCard>
  );
}
