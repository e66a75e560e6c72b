import { useState } from 'react';
import { Button, Card, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PromoCodeGenerateResponse, PromoCodeResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const PROMO_CODE_KEY = ['crm', 'promo-code'];

/**
 * Promo Code (/admin/promo-code, back-office §2): the staff member's own code, read-only, and Generate for a new one
 * (the old one stops linking new sign-ups). Customers who sign up with it become the staff member's leads.
 */
export function PromoCodePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const current = useQuery({ queryKey: PROMO_CODE_KEY, queryFn: () => apiGet<PromoCodeResponse>('/admin/promo-code') });
  const code = current.data?.code ?? '';

  const generate = async () => {
    setBusy(true);
    try {
      const res = await apiPost<PromoCodeGenerateResponse>('/admin/promo-code', {});
      // The spec reloads the page; showing the new code from the answer and refetching has the same effect.
      client.setQueryData<PromoCodeResponse>(PROMO_CODE_KEY, { code: res.code, created_at: res.created_at });
      toastSuccess(t('Promo code generated successfully'));
      await client.invalidateQueries({ queryKey: PROMO_CODE_KEY });
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="lg" radius="md" maw={560}>
      <Stack gap="md">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('Promo Code')}
            placeholder={t('Click generate to get promo code')}
            value={code}
            readOnly
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'monospace', letterSpacing: 2 } }}
          />
          {code && (
            <CopyButton value={code}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  onClick={copy}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                >
                  {copied ? t('Copied') : t('Copy')}
                </Button>
              )}
            </CopyButton>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('Customers who sign up with this code become your leads. Generating a new code replaces this one.')}
        </Text>
        <Group justify="flex-end">
          <Button onClick={() => void generate()} loading={busy} disabled={busy || current.isLoading}>
            {t('Generate')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
