import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Recaptcha } from '../../ui/Recaptcha.tsx';
import type { useCaptcha } from './useCaptcha.ts';

/** The captcha widget when enabled; a notice when it is on but no site key is configured. */
export function CaptchaField({ captcha }: { captcha: ReturnType<typeof useCaptcha> }) {
  const { t } = useTranslation();
  if (!captcha.enabled) return null;
  if (!captcha.siteKey)
    return (
      <Alert color="yellow" variant="light">
        {t('Human verification is unavailable right now. Please try again later.')}
      </Alert>
    );
  return <Recaptcha key={captcha.key} siteKey={captcha.siteKey} onChange={captcha.setToken} />;
}
