import { useEffect } from 'react';
import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconClock, IconX } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@platform/domain';
import { queryKeys } from '../../../api/hooks.ts';

/**
 * The result of a deposit, driven by ?status&amount&message (client-area §2): "Deposit Successful" (with the amount),
 * "Deposit Submitted" (pending), anything else "Deposit Failed" (with the message).
 */
export function DepositResultModal({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const client = useQueryClient();
  // A returning payment may have credited the wallet: the top bar and the history read it again.
  useEffect(() => {
    if (!status) return;
    void client.invalidateQueries({ queryKey: queryKeys.currentUser });
    void client.invalidateQueries({ queryKey: ['money', 'deposits'] });
  }, [status, client]);
  if (!status) return null;
  const amount = params.get('amount') ?? '';
  const message = params.get('message');
  const close = () => setParams({}, { replace: true });
  const kind = status === 'success' ? 'success' : status === 'pending' ? 'pending' : 'failed';
  const title = { success: t('Deposit Successful'), pending: t('Deposit Submitted'), failed: t('Deposit Failed') }[
    kind
  ];
  const icon = { success: <IconCheck />, pending: <IconClock />, failed: <IconX /> }[kind];
  const color = { success: 'green', pending: 'yellow', failed: 'red' }[kind];
  const validAmount = /^\d+(\.\d+)?$/.test(amount);
  return (
    <Modal opened onClose={close} title={title} centered>
      <Stack align="center" gap="sm" py="sm">
        <ThemeIcon size={56} radius="xl" color={color} variant="light">
          {icon}
        </ThemeIcon>
        {kind === 'success' && validAmount && (
          <Text fw={700} size="xl" data-testid="deposit-result-amount">
            {formatMoney(amount, currency)}
          </Text>
        )}
        <Text ta="center" c="dimmed">
          {kind === 'pending'
            ? t('Your deposit is waiting for confirmation. Your wallet is credited once it is approved.')
            : message || (kind === 'success' ? t('Your wallet was credited.') : t('The payment did not go through.'))}
        </Text>
        <Button onClick={close} fullWidth>
          {t('OK')}
        </Button>
      </Stack>
    </Modal>
  );
}
