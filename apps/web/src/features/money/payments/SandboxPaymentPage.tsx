import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, formatMoney, type PaymentResultResponse } from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { toastError } from '../../../ui/toast.ts';
import { useSandboxCheckout } from '../api.ts';

/**
 * The built-in sandbox card gateway's payment page: no card, no real money. Approve or Decline makes the sandbox
 * provider send its signed callback, as a real provider would, and the browser lands on the deposit result.
 */
export function SandboxPaymentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ref = useParams().txRef ?? '';
  const checkout = useSandboxCheckout(ref);
  const [busy, setBusy] = useState<'approve' | 'decline' | null>(null);

  const decide = async (decision: 'approve' | 'decline') => {
    setBusy(decision);
    try {
      const result = await apiPost<PaymentResultResponse>(`/payments/sandbox/${ref}/${decision}`);
      void navigate(result.redirect);
    } catch (err) {
      toastError(errorMessage(err, t(GENERIC_ERROR)));
      setBusy(null);
    }
  };

  if (checkout.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (checkout.isError) return <Text c="red">{errorMessage(checkout.error, t('Payment not found.'))}</Text>;
  const c = checkout.data;
  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={440} w="100%">
        <Stack gap="md">
          <Alert
            color="yellow"
            variant="light"
            icon={<IconFlask size={18} />}
            title={t('Sandbox payment (no real money)')}
          >
            {t('This test gateway approves or declines without a card. Use it to try deposits.')}
          </Alert>
          <Text c="dimmed" size="sm">
            {c.merchant}
          </Text>
          <Title order={2} data-testid="sandbox-amount">
            {t('Deposit {{amount}} {{currency}}', { amount: formatMoney(c.amount, c.currency), currency: c.currency })}
          </Title>
          {c.status !== 'pending' ? (
            <Text>{t('This payment is already {{status}}.', { status: t(c.status) })}</Text>
          ) : (
            <Group grow>
              <Button
                color="red"
                variant="light"
                loading={busy === 'decline'}
                disabled={busy !== null}
                onClick={() => void decide('decline')}
              >
                {t('Decline')}
              </Button>
              <Button
                color="green"
                loading={busy === 'approve'}
                disabled={busy !== null}
                onClick={() => void decide('approve')}
              >
                {t('Approve')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
