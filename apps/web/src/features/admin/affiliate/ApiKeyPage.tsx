import { useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconCopy, IconDownload, IconKey } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_HEADER,
  formatDateTime,
  type AffiliateApiKeyGenerated,
  type AffiliateApiKeyResponse,
} from '@platform/domain';
import { apiGet, apiPost, apiUrl, errorMessage } from '../../../api/client.ts';
import { ConfirmPopover } from '../../../ui/data-table/ConfirmPopover.tsx';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

export const API_KEY_QUERY_KEY = ['affiliate', 'api-key'] as const;
export const DOCUMENTATION_URL = apiUrl('/affiliate/api/documentation');

/** Copies through the Clipboard API, or by selecting the field where the page is not a secure context. */
async function copyText(value: string, input: HTMLInputElement | null): Promise<void> {
  if (navigator.clipboard) return navigator.clipboard.writeText(value);
  input?.select();
  document.execCommand('copy');
}

/**
 * API Key (/affiliate/api, role 4; back-office §2): the affiliate's key for the lead-intake API, read-only, with
 * Generate and the Documentation download. The server keeps only a hash, so the whole key is shown once, right after
 * it is generated (the page keeps it on screen instead of reloading); afterwards its first characters identify it.
 */
export function ApiKeyPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const query = useQuery({
    queryKey: API_KEY_QUERY_KEY,
    queryFn: () => apiGet<AffiliateApiKeyResponse>('/affiliate/api'),
  });
  const current = query.data;

  const generate = async () => {
    setBusy(true);
    try {
      const res = await apiPost<AffiliateApiKeyGenerated>('/affiliate/api');
      setFresh(res.key);
      queryClient.setQueryData<AffiliateApiKeyResponse>(API_KEY_QUERY_KEY, {
        key: null,
        prefix: res.prefix,
        created_at: res.created_at,
      });
      toastSuccess(t('API key generated successfully'));
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!fresh) return;
    try {
      await copyText(fresh, input.current);
      toastSuccess(t('Copied to clipboard'));
    } catch {
      toastError(t('Something went wrong'));
    }
  };

  const shown = fresh ?? (current?.prefix ? `${current.prefix}${'•'.repeat(12)}` : '');
  const hasKey = Boolean(fresh || current?.prefix);
  const generateButton = (
    <Button
      leftSection={<IconKey size={16} />}
      loading={busy}
      disabled={query.isPending}
      onClick={hasKey ? undefined : () => void generate()}
    >
      {t('Generate')}
    </Button>
  );

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Stack gap="md" maw={720}>
        <Text size="sm" c="dimmed">
          {t(
            'Your systems post leads to the lead-intake API with this key in the {{header}} header. The Documentation explains how.',
            { header: API_KEY_HEADER },
          )}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            ref={input}
            label={t('API Key')}
            value={shown}
            placeholder={query.isPending ? '' : t('No key yet: generate one')}
            readOnly
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-testid="api-key"
          />
          {fresh && (
            <Button variant="light" leftSection={<IconCopy size={16} />} onClick={() => void copy()}>
              {t('Copy')}
            </Button>
          )}
        </Group>
        {fresh ? (
          <Alert color="yellow" title={t('Copy your key now')}>
            {t('It is shown only this once: only its first characters are kept. If you lose it, generate a new one.')}
          </Alert>
        ) : (
          current?.created_at && (
            <Text size="sm" c="dimmed">
              {t('Generated on {{date}}. The whole key was shown once, when it was generated.', {
                date: formatDateTime(current.created_at),
              })}
            </Text>
          )
        )}
        {query.isError && <Alert color="red">{errorMessage(query.error)}</Alert>}
        <Group>
          {hasKey ? (
            <ConfirmPopover
              message={t('Generate a new key? The current key stops working at once.')}
              onConfirm={generate}
            >
              {generateButton}
            </ConfirmPopover>
          ) : (
            generateButton
          )}
          <Button
            component="a"
            href={DOCUMENTATION_URL}
            download
            variant="default"
            leftSection={<IconDownload size={16} />}
          >
            {t('Documentation')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
