import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../api/hooks.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { PlanCards } from './PlanCards.tsx';

/** /pricing (My Plan, client-area §2): a subscription is a one-off charge of the plan's price from the real wallet. */
export function PricingPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  return (
    <PageCard
      title={t('My Plan')}
      description={t('The price is charged once from your real wallet when you choose a plan.')}
    >
      <PlanCards currentPlanId={current?.user.pricing_table_id ?? null} />
    </PageCard>
  );
}
