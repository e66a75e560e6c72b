import { useState } from 'react';
import { Badge, Button, Center, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, dec, formatMoney, type MessageResponse, type PricingPlanDto } from '@platform/domain';
import { ApiError, apiPost, errorMessage } from '../../../api/client.ts';
import { toastSuccess } from '../../../ui/toast.ts';
import { usePlans } from '../api.ts';
import { conversionNote, PlanConfirmModal, planPrice } from './PlanConfirmModal.tsx';

/**
 * Plan cards, three columns on large screens (client-area §2): name, description, price, forex leverage ("normal"
 * when none) and forex stopout ("N/A" when none). The current plan's button is disabled. The price shows in the
 * currency of the real wallet it is charged from (the plan's own price and the rate below it). Get Started asks to
 * confirm the amount first; the server charges exactly that amount, then a toast says so and every screen reads
 * the new plan. A price the rate has moved is shown again to confirm; any other failure goes to /deposits with
 * "Not enough balance" (client-area §4, §8).
 */
export function PlanCards({ currentPlanId }: { currentPlanId: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const plans = usePlans();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = plans.data?.data.find((p) => p.id === chosenId) ?? null;

  const choose = (plan: PricingPlanDto) => {
    setError(null);
    setChosenId(plan.id);
    // The price at the current rate: the amount confirmed is the one charged.
    void plans.refetch();
  };

  const subscribe = async (plan: PricingPlanDto) => {
    setBusy(true);
    const { amount, currency } = planPrice(plan);
    try {
      const res = await apiPost<MessageResponse>(
        `/dashboard/pricing/subscribe/${plan.id}`,
        plan.charge ? { amount, currency } : {},
      );
      setChosenId(null);
      toastSuccess(res.message || t('You are now on the {{name}} plan.', { name: plan.name }));
      // Every screen reads the new plan's terms (leverage, stop out) and the charged wallet again.
      await client.invalidateQueries();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // The rate moved (or the plan is already active): show the new price and let the customer decide.
        setError(errorMessage(err));
        await plans.refetch();
        return;
      }
      setChosenId(null);
      // Any other failure reads "Not enough balance" (client-area §8); the server's own reason, when it says more, goes below.
      const reason = errorMessage(err, '');
      notifications.show({
        color: 'red',
        title: t('Not enough balance'),
        message: reason && reason !== 'Not enough balance' ? reason : '',
      });
      void navigate('/deposits');
    } finally {
      setBusy(false);
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
    <>
      {chosen && (
        <PlanConfirmModal
          plan={chosen}
          busy={busy}
          refreshing={plans.isFetching}
          error={error}
          onConfirm={() => void subscribe(chosen)}
          onClose={() => setChosenId(null)}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {plans.data.data.map((plan) => {
          const current = plan.id === currentPlanId;
          const price = planPrice(plan);
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
                <div>
                  <Text fw={700} fz={28} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="plan-price">
                    {formatMoney(price.amount, price.currency)}
                  </Text>
                  {price.converted && dec(plan.price).gt(0) ? (
                    <Text size="xs" c="dimmed">
                      {conversionNote(plan, t)}
                    </Text>
                  ) : (
                    plan.charge === null &&
                    dec(plan.price).gt(0) && (
                      <Text size="xs" c="dimmed">
                        {t('Charged from your real wallet in its currency, at the rate of the moment.')}
                      </Text>
                    )
                  )}
                </div>
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
                <Button disabled={current} loading={busy && chosenId === plan.id} onClick={() => choose(plan)}>
                  {current ? t('Current Plan') : t('Get Started')}
                </Button>
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </>
  );
}
