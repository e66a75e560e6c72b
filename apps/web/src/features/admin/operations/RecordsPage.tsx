import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  CheckpointVerifyResponse,
  RecordsCheckpoint,
  RecordsVerifyResponse,
  StoredCheckpointDto,
} from '@platform/domain';
import { apiGet, apiPost, apiUrl, errorMessage } from '../../../api/client.ts';
import { DataTable, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { PageCard } from '../../../ui/PageCard.tsx';

export const CHECKPOINTS_URL = '/admin/records/checkpoints';

/** The outcome of "Verify records": every chain holds, or the first row of each chain that does not. */
function VerifyResult({ result }: { result: RecordsVerifyResponse }) {
  const { t } = useTranslation();
  const line = (name: string, c: RecordsVerifyResponse['audit']) =>
    c.firstBroken === null
      ? t('{{name}}: {{rows}} rows, every link holds', { name, rows: c.rows })
      : t('{{name}}: {{rows}} rows, first broken at row #{{id}}', { name, rows: c.rows, id: c.firstBroken });
  return (
    <Alert
      color={result.ok ? 'teal' : 'red'}
      title={result.ok ? t('The records are intact') : t('The records were changed')}
      data-testid="records-verify-result"
    >
      <Stack gap={2}>
        <Text size="sm">{line(t('Audit trail'), result.audit)}</Text>
        <Text size="sm">{line(t('Ledger'), result.ledger)}</Text>
      </Stack>
    </Alert>
  );
}

/** One stored checkpoint checked against the chains now (its heads still in place, its signature). */
function CheckpointCheck({ id }: { id: number }) {
  const { t } = useTranslation();
  const check = useMutation({
    mutationFn: async () => {
      const file = await apiGet<RecordsCheckpoint>(`${CHECKPOINTS_URL}/${id}`);
      return apiPost<CheckpointVerifyResponse>('/admin/records/checkpoint/verify', file);
    },
  });
  if (check.data)
    return (
      <Badge color={check.data.ok ? 'teal' : 'red'} variant="light" title={check.data.changed.join(', ')}>
        {check.data.ok
          ? t('Still in place')
          : t('Changed since: {{chains}}', { chains: check.data.changed.slice(0, 3).join(', ') || t('signature') })}
      </Badge>
    );
  return (
    <Button size="compact-xs" variant="light" loading={check.isPending} onClick={() => check.mutate()}>
      {check.isError ? t('Try again') : t('Check')}
    </Button>
  );
}

/**
 * Records (/admin/records, admins): "Verify records" walks the audit trail's and the ledger's hash chains now; the
 * daily checkpoints the server stored (one a day, the chains' heads, signed when a key is set) are listed to
 * download as JSON files for an auditor, or to check against the chains as they are now.
 */
export function RecordsPage() {
  const { t } = useTranslation();
  const [result, setResult] = useState<RecordsVerifyResponse | null>(null);
  const verify = useMutation({
    mutationFn: () => apiGet<RecordsVerifyResponse>('/admin/records/verify'),
    onSuccess: setResult,
  });
  const columns = useMemo<DataTableColumn<StoredCheckpointDto>[]>(
    () => [
      { key: 'day', label: t('DAY') },
      { key: 'at', label: t('TAKEN AT'), type: 'date' },
      { key: 'audit_seq', label: t('AUDIT ROWS') },
      { key: 'wallets', label: t('WALLETS') },
      {
        key: 'signed',
        label: t('SIGNED'),
        render: (c) => (
          <Badge color={c.signed ? 'teal' : 'gray'} variant="light">
            {c.signed ? t('Signed') : t('Not signed')}
          </Badge>
        ),
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (c) => (
          <Group gap="xs" wrap="nowrap">
            <Anchor href={apiUrl(`${CHECKPOINTS_URL}/${c.id}`)} download size="sm">
              {t('Download')}
            </Anchor>
            <CheckpointCheck id={c.id} />
          </Group>
        ),
      },
    ],
    [t],
  );
  return (
    <Stack gap="lg">
      <PageCard
        title={t('Records')}
        description={t(
          'Every audit row and ledger entry is chained to the one before it by a hash: a row changed or removed in the database breaks its chain.',
        )}
      >
        <Stack gap="md">
          <Group>
            <Button onClick={() => verify.mutate()} loading={verify.isPending}>
              {t('Verify records')}
            </Button>
            <Anchor href={apiUrl('/admin/records/checkpoint')} download size="sm">
              {t('Download a checkpoint now')}
            </Anchor>
          </Group>
          {verify.isError && (
            <Text c="red" size="sm">
              {errorMessage(verify.error, t('Something went wrong'))}
            </Text>
          )}
          {result && <VerifyResult result={result} />}
        </Stack>
      </PageCard>
      <PageCard
        title={t('Daily checkpoints')}
        description={t(
          'The head of every chain, stored once a day. Keep the files outside the platform: a chain rewritten later no longer holds the head a file names.',
        )}
      >
        <DataTable<StoredCheckpointDto> url={CHECKPOINTS_URL} columns={columns} searchable={false} />
      </PageCard>
    </Stack>
  );
}
