import { useState } from 'react';
import { Badge, Button, Center, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, formatMoney, type PricingPlanDto } from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { usePlans } from '../api.ts';

/**
 * Plan cards, three columns on large screens (client-area §2): name, description, price, forex leverage ("normal"
 * when none) and forex stopout ("N/A" when none). The current plan's button is disabled. Subscribing reloads the
 * page; any failure goes to /deposits with "Not enough balance" (client-area §4, §8).
 */
export function PlanCards({ currentPlanId }: { currentPlanId: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const plans = usePlans();
  const [busy, setBusy] = useState<number | null>(null);

  const subscribe = async (plan: PricingPlanDto) => {
    setBusy(plan.id);
    try {
      await apiPost(`/dashboard/pricing/subscribe/${plan.id}`);
      window.location.reload();
    } catch (err) {
      setBusy(null);
      // Any failure reads "Not enough balance" (client-area §8); the server's own reason, when it says more, goes below.
      const reason = errorMessage(err, '');
      notifications.show({
        color: 'red',
        title: t('Not enough balance'),
        message: reason && reason !== 'Not enough balance' ? reason : '',
      });
      void navigate('/deposits');
    }
  };

  if (plans.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (plans.isError) return <Text c="red">{errorMessage(plans.error, t(GENERIC_ERROR))}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
      {plans.data.data.map((plan) => {
        const current = plan.id === currentPlanId;
        return (
          <Paper
            key={plan.id}
            withBorder
            radius="md"
            p="lg"
            data-testid={`plan-${plan.id}`}
            style={current ? { borderColor: 'var(--mantine-color-blue-6)' } : undefined}
          >
            <Stack gap="sm" h="100%">
              <Stack gap={4}>
                <Title order={3}>{plan.name}</Title>
                {current && (
                  <Badge variant="light" w="fit-content">
                    {t('Current Plan')}
                  </Badge>
                )}
              </Stack>
              <Text c="dimmed" size="sm" style={{ flex: 1 }}>
                {plan.description}
              </Text>
              <Text fw={700} fz={28} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatMoney(plan.price, plan.currency)}
              </Text>
              <Text size="sm">
                {t('Leverage up to {{leverage}}', {
                  leverage: plan.forex_leverage ? `1:${plan.forex_leverage}` : t('normal'),
                })}
              </Text>
              <Text size="sm">
                {t('Stop out {{stopout}}', {
                  stopout: plan.forex_stopout !== null ? `${plan.forex_stopout}%` : t('N/A'),
                })}
              </Text>
              <Button disabled={current} loading={busy === plan.id} onClick={() => void subscribe(plan)}>
                {current ? t('Current Plan') : t('Get Started')}
              </Button>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
