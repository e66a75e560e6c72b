import { Modal, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBranding, useCurrentUser } from '../../../api/hooks.ts';
import { PlanCards } from './PlanCards.tsx';

/**
 * A customer without a plan while plans are on must choose one first (client-area §2): a 5xl modal that cannot be
 * dismissed (5xl: 64rem wide). It stays away from the deposit and payment pages, where a client funds the wallet to pay for a plan.
 */
export function ForcedPlanModal() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: current } = useCurrentUser();
  const { data: branding } = useBranding();
  const needed =
    current?.user.role_id === 3 && current.user.pricing_table_id === null && branding?.pricingPlan === 'on';
  if (!needed || pathname.startsWith('/deposits') || pathname.startsWith('/payments')) return null;
  return (
    // No header bar: nothing to close, and the page keeps a single banner (its top bar).
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="64rem"
      centered
      aria-labelledby="forced-plan-title"
    >
      <Title order={3} id="forced-plan-title" mb={4}>
        {t('Choose your plan')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('Pick a plan to start trading. You can change it later under My Plan.')}
      </Text>
      <PlanCards currentPlanId={null} />
    </Modal>
  );
}
