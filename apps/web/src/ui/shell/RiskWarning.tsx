import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../api/hooks.ts';

/**
 * The retail risk warning every client page carries (ESMA-style), with the share of losing accounts when the broker
 * states one (Site Settings); nothing when an admin turned it off. `compact`: one line, for the terminal that fits
 * the window.
 */
export function RiskWarning({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { data } = useBranding();
  const warning = data?.riskWarning;
  if (!warning) return null;
  return (
    <Text
      size="xs"
      c="dimmed"
      mt={compact ? 0 : 'lg'}
      pt={compact ? 2 : 'xs'}
      lineClamp={compact ? 1 : undefined}
      title={
        compact
          ? t('CFDs are complex instruments and come with a high risk of losing money rapidly due to leverage.')
          : undefined
      }
      ta="center"
      data-testid="risk-warning"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      {t('CFDs are complex instruments and come with a high risk of losing money rapidly due to leverage.')}{' '}
      {warning.losingPercent
        ? t('{{percent}} % of retail investor accounts lose money when trading CFDs with this provider.', {
            percent: warning.losingPercent,
          })
        : null}{' '}
      {t('You should consider whether you can afford to take the high risk of losing your money.')}
    </Text>
  );
}
