import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LEAD_CSV_COLUMNS, LEAD_CSV_MAX_BYTES, type LeadCsvUploadResponse } from '@platform/domain';
import { apiPost, apiUrl, errorMessage } from '../../../api/client.ts';
import { toastError, toastInfo, toastSuccess } from '../../../ui/toast.ts';
import { ImportReport } from './ImportReport.tsx';
import { isFinished, useLeadImport } from './useLeadImport.ts';

/** The import under way: what the upload answered. */
type Upload = Pick<LeadCsvUploadResponse, 'id' | 'fileName' | 'rowCount'>;

/**
 * Upload Leads (back-office §2): a CSV file input, a link to the example CSV and Submit. The server checks the file at
 * once and imports it in the background; the modal follows the import and then shows its report until it is closed.
 * Closing it earlier is fine: the import goes on, and its result still comes as a toast and refreshes the lists.
 */
export function UploadLeadsButton({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const status = useLeadImport(upload?.id ?? null);
  const current = status.data && status.data.id === upload?.id ? status.data : null;
  const finished = isFinished(current?.status) || status.isError;
  const announced = useRef<number | null>(null);

  // Once per import, when it ends: the toast, and the lists refresh when leads came in.
  useEffect(() => {
    if (!upload || announced.current === upload.id) return;
    if (current?.status === 'done' && current.report) {
      const { report } = current;
      if (report.accepted > 0) {
        toastSuccess(t(report.message));
        onImported();
      } else if (!opened) toastInfo(t('Upload Leads'), t(report.message));
    } else if (current?.status === 'failed') {
      toastError(current.error ?? t('Something went wrong'));
    } else if (status.isError) {
      toastError(errorMessage(status.error));
    } else return;
    announced.current = upload.id;
    if (!opened) setUpload(null);
  }, [current, status.isError, status.error, upload, opened, onImported, t]);

  const close = () => {
    setOpened(false);
    setFile(null);
    setError(null);
    // An import still running keeps being followed; a finished one is forgotten.
    if (finished) setUpload(null);
  };
  const submit = async () => {
    if (!file) return setError(t('Choose a CSV file to upload.'));
    if (file.size > LEAD_CSV_MAX_BYTES)
      return setError(`${t('The file is too large')} (${LEAD_CSV_MAX_BYTES / 1024 / 1024} MB)`);
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      const r = await apiPost<LeadCsvUploadResponse>('/admin/leads/csv', form);
      setUpload({ id: r.id, fileName: r.fileName, rowCount: r.rowCount });
      setFile(null);
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const importing = upload !== null && !finished;

  return (
    <>
      <Button variant="default" leftSection={<IconFileUpload size={16} />} onClick={() => setOpened(true)}>
        {t('Upload CSV')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('Upload Leads')}
        size="lg"
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
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
          {importing && (
            <Alert
              color="blue"
              icon={<Loader size="sm" />}
              title={t('The file is being imported')}
              data-testid="csv-importing"
            >
              <Text size="sm">
                {upload.fileName}: {upload.rowCount.toLocaleString('en')} {t('rows')}
                {current?.status === 'queued' ? ` (${t('waiting to start')})` : ''}
              </Text>
              <Text size="sm" mt={4}>
                {t('You can close this window: the import continues, and the lists refresh when it is done.')}
              </Text>
            </Alert>
          )}
          {current?.status === 'done' && current.report && <ImportReport report={current.report} />}
          {current?.status === 'failed' && (
            <Alert color="red" title={t('The import failed')}>
              {current.error ?? t('Something went wrong')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={busy || importing} disabled={busy || importing}>
              {t('Submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
