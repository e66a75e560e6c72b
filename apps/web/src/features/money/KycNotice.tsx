import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

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
