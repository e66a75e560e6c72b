import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUserResponse } from '@platform/domain';

/**
 * Whether the server would refuse this action for want of KYC, so the notice shows there and nowhere else: a customer
 * (staff never need KYC) without approved KYC, while the site setting holds the action back; trading only on a real
 * wallet (demo trading needs no KYC).
 */
export function needsKyc(current: CurrentUserResponse, action: 'deposit' | 'withdraw' | 'trade'): boolean {
  if (current.user.role_id !== 3 || current.isKyc || !current.kycRequired[action]) return false;
  return action !== 'trade' || current.activeBalance?.mode === 'real';
}

/** The red notice of a page that needs KYC (client-area §2); the form still renders below it. */
export function KycNotice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="filled" icon={<IconAlertTriangle size={18} />} mb="md" data-testid="kyc-notice">
      {t(text)}{' '}
      <Anchor component={Link} to="/kyc" c="white" fw={700} underline="always">
        {t('Click here')}
      </Anchor>
    </Alert>
  );
}
