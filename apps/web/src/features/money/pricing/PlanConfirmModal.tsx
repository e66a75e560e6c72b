import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, type PricingPlanDto } from '@platform/domain';

/** What a plan costs the customer: the converted charge when the server gave one, else the plan's own price. */
export function planPrice(plan: PricingPlanDto): { amount: string; currency: string; converted: boolean } {
  const c = plan.charge;
  return c
    ? { amount: c.amount, currency: c.currency, converted: c.currency !== plan.currency }
    : { amount: plan.price, currency: plan.currency, converted: false };
}

/** "$250.00 at 1 EUR = 1.08 USD": how a converted price was reached (nothing for a free plan). */
export function conversionNote(plan: PricingPlanDto, t: (k: string, o?: Record<string, unknown>) => string): string {
  const c = plan.charge;
  if (!c || c.currency === plan.currency || dec(plan.price).lte(0)) return '';
  return t('{{price}} at 1 {{wallet}} = {{rate}} {{plan}}', {
    price: formatMoney(plan.price, plan.currency),
    wallet: c.currency,
    rate: c.rate,
    plan: plan.currency,
  });
}

/**
 * The confirmation before a plan is charged: the plan, the amount in the wallet's currency and the wallet it comes
 * from. The amount shown is the amount sent, and the server charges exactly that (or refuses when the rate moved).
 */
export function PlanConfirmModal({
  plan,
  busy,
  refreshing,
  error,
  onConfirm,
  onClose,
}: {
  plan: PricingPlanDto;
  busy: boolean;
  refreshing: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { amount, currency } = planPrice(plan);
  const free = dec(plan.price).lte(0);
  const money = formatMoney(amount, currency);
  const note = conversionNote(plan, t);
  let body: string;
  if (free) body = t('This plan is free: nothing is charged.');
  else if (plan.charge)
    body = t('{{amount}} will be charged once from your real {{currency}} wallet.', { amount: money, currency });
  else
    body = t(
      '{{amount}} will be charged once from your real wallet, converted into its currency at the rate of the moment.',
      { amount: money },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('Change to the {{name}} plan?', { name: plan.name })}
      centered
      zIndex={400}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="sm" data-testid="plan-confirm">
        {!free && (
          <Text fw={700} fz={28} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="plan-confirm-amount">
            {money}
          </Text>
        )}
        <Text size="sm">{body}</Text>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
        {error && (
          <Alert color="orange" variant="light" data-testid="plan-confirm-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('Cancel')}
          </Button>
          <Button onClick={onConfirm} loading={busy} disabled={refreshing}>
            {free ? t('Confirm') : t('Pay {{amount}}', { amount: money })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
