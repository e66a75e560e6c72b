import { useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LEAD_CSV_COLUMNS, LEAD_CSV_MAX_BYTES, type LeadCsvReport } from '@platform/domain';
import { apiPost, apiUrl, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const MATCHES: Record<LeadCsvReport['duplicates'][number]['matches'], string> = {
  lead: 'an existing lead',
  customer: 'an existing customer',
  file: 'an earlier row of this file',
};

/** What an upload did: counts, then the rows left out and why (the server lists up to 1,000 of each). */
function ImportReport({ report }: { report: LeadCsvReport }) {
  const { t } = useTranslation();
  const rows = [
    ...report.rejected.map((r) => ({ row: r.row, what: t('Rejected'), why: r.reasons.join('; ') })),
    ...report.duplicates.map((d) => ({ row: d.row, what: t('Duplicate'), why: `${d.field} ${t('matches')} ${t(MATCHES[d.matches])}` })),
  ].sort((a, b) => a.row - b.row);
  return (
    <Stack gap="xs" data-testid="csv-report">
      <Alert color={report.accepted > 0 ? 'green' : 'yellow'} title={`${report.accepted} / ${report.total} ${t('leads imported')}`}>
        {report.rejectedCount} {t('rejected')}, {report.duplicateCount} {t('duplicates')}
        {report.ignoredColumns.length > 0 && (
          <Text size="sm" mt={4}>
            {t('Columns ignored')}: {report.ignoredColumns.join(', ')}
          </Text>
        )}
      </Alert>
      {rows.length > 0 && (
        <ScrollArea.Autosize mah={260}>
          <Table striped withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Row')}</Table.Th>
                <Table.Th>{t('Result')}</Table.Th>
                <Table.Th>{t('Reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.what}-${r.row}`}>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td>{r.what}</Table.Td>
                  <Table.Td>{r.why}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

/**
 * Upload Leads (back-office §2): a CSV file input, a link to the example CSV and Submit. The server imports the
 * valid rows in one transaction and answers with a report, which stays on screen until the modal is closed.
 */
export function UploadLeadsButton({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<LeadCsvReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setOpened(false);
    setFile(null);
    setReport(null);
    setError(null);
  };
  const submit = async () => {
    if (!file) return setError(t('Choose a CSV file to upload.'));
    if (file.size > LEAD_CSV_MAX_BYTES) return setError(`${t('The file is too large')} (${LEAD_CSV_MAX_BYTES / 1024 / 1024} MB)`);
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      const r = await apiPost<LeadCsvReport>('/admin/leads/csv', form);
      setReport(r);
      setFile(null);
      if (r.accepted > 0) {
        toastSuccess(t(r.message));
        onImported();
      }
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="default" leftSection={<IconFileUpload size={16} />} onClick={() => setOpened(true)}>
        {t('Upload CSV')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('Upload Leads')} size="lg">
        <Stack>
          <FileInput
            label={t('CSV File')}
            accept=".csv,text/csv"
            value={file}
            onChange={(f) => {
              setFile(f);
              setError(null);
            }}
            error={error}
            clearable
          />
          <Text size="sm" c="dimmed">
            {t('Columns')}: {LEAD_CSV_COLUMNS.join(', ')}.{' '}
            <Anchor href={apiUrl('/admin/leads/csv/example')} download="leads-example.csv">
              {t('Download an example CSV')}
            </Anchor>
          </Text>
          {report && <ImportReport report={report} />}
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={busy} disabled={busy}>
              {t('Submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
