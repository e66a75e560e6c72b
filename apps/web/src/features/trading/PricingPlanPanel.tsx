import { Anchor, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconStar } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PricingTableDto } from '@platform/domain';
import { MARKET_TABS } from './InstrumentPanel.tsx';

/** The client's plan and the leverage it gives per market, shown when the pricingPlan branding switch is on. */
export function PricingPlanPanel({ plan }: { plan: PricingTableDto | null }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid="pricing-plan-panel">
      <Group justify="space-between" mb="xs">
        <Group gap={6}>
          <IconStar size={16} color="var(--mantine-color-yellow-5)" />
          <Text size="sm" c="dimmed">
            {t('Current Plan')}
          </Text>
          <Text fw={700}>{plan?.name ?? t('No plan')}</Text>
        </Group>
        <Anchor component={Link} to="/pricing" size="sm">
          {plan ? t('Change Plan') : t('Choose a plan')}
        </Anchor>
      </Group>
      {plan && (
        <SimpleGrid cols={3} spacing="xs" verticalSpacing="xs">
          {MARKET_TABS.map((m) => {
            const leverage = plan[`${m.category}_leverage`];
            return (
              <div key={m.category}>
                <Text size="xs" c="dimmed">
                  {t(m.label)}
                </Text>
                <Text size="sm" fw={600}>
                  {leverage ? `1:${leverage}` : t('normal')}
                </Text>
              </div>
            );
          })}
        </SimpleGrid>
      )}
    </Paper>
  );
}
