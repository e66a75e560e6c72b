import { Divider, NumberInput, SimpleGrid, Switch, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_RETAIL_CAPS,
  type PricingPlanDto,
  RETAIL_CLASSES,
  type RetailCaps,
  retailCapsOf,
} from '@platform/domain';
import { fieldProps } from '../../../../ui/form.ts';

/** The labels of the retail classes, in the form's order. */
const CLASS_LABELS: Record<keyof RetailCaps, string> = {
  forexMajor: 'Major currency pairs',
  forexOther: 'Other currency pairs',
  gold: 'Gold',
  indexMajor: 'Major indices',
  commodity: 'Other commodities',
  index: 'Other indices',
  stock: 'Stocks',
  crypto: 'Crypto',
};

/** Retail protections as the plan form holds them. */
export type RetailTermsValues = {
  retail: boolean;
  retailCaps: Record<keyof RetailCaps, number | string>;
};

/** A new plan is retail with the shipped caps; an existing one shows its own. */
export const retailTermsOf = (plan: PricingPlanDto | undefined): RetailTermsValues => ({
  retail: plan ? (plan.retail ?? false) : true,
  retailCaps: plan ? retailCapsOf(plan.retail_caps) : { ...DEFAULT_RETAIL_CAPS },
});

/** The retail switch and, when on, the leverage caps per instrument class. */
export function RetailTermsFields<V extends RetailTermsValues>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation();
  const f = (name: string, type?: 'checkbox') =>
    fieldProps(form, name as keyof V & string, t, type ? { type } : undefined);
  return (
    <>
      <Divider label={t('Retail protections')} labelPosition="left" />
      <Switch
        label={t('Retail client plan (leverage caps, close-out at 50 % or above)')}
        {...f('retail', 'checkbox')}
      />
      {form.values.retail && (
        <>
          <Text size="xs" c="dimmed">
            {t('Orders are margined at no more than these leverages (1:N), whatever the plan or instrument sets.')}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }} verticalSpacing="xs">
            {RETAIL_CLASSES.map((c) => (
              <NumberInput
                key={c}
                label={t(CLASS_LABELS[c])}
                min={1}
                max={5000}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                {...f(`retailCaps.${c}`)}
              />
            ))}
          </SimpleGrid>
        </>
      )}
    </>
  );
}
