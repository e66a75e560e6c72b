import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { PricingPlanRequest, type AccountType, type PricingPlanDto } from '@platform/domain';
import { fieldProps } from '../../../../ui/form.ts';
import { FormActions, useSaveItem } from '../../../../ui/list-page/index.ts';
import { PlanTermsFields, planTermsOf, type PlanTermsValues } from './PlanTermsFields.tsx';
import { RetailTermsFields, retailTermsOf, type RetailTermsValues } from './RetailTermsFields.tsx';

/** The asset classes a plan sets a leverage and stop out for, in the order the form shows them. */
export const PLAN_CLASSES = [
  { key: 'forex', label: 'Forex' },
  { key: 'commodity', label: 'Commodity' },
  { key: 'index', label: 'Index' },
  { key: 'stock', label: 'Stock' },
  { key: 'crypto', label: 'Crypto' },
] as const;
type PlanClass = (typeof PLAN_CLASSES)[number]['key'];
type Numeric = number | string;

export type PlanFormValues = {
  name: string;
  description: string;
  price: string;
  accountType: AccountType;
} & Record<`${PlanClass}Leverage` | `${PlanClass}Stopout`, Numeric> &
  PlanTermsValues &
  RetailTermsValues;

function initialValues(plan: PricingPlanDto | undefined): PlanFormValues {
  const values: Record<string, unknown> = {
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    price: plan?.price ?? '0',
    accountType: plan?.account_type ?? 'hedging',
    ...planTermsOf(plan),
    ...retailTermsOf(plan),
  };
  for (const { key } of PLAN_CLASSES) {
    // Empty inputs mean "not set by the plan" (null): the instrument's own leverage, the default stop out.
    values[`${key}Leverage`] = plan?.[`${key}_leverage`] ?? '';
    values[`${key}Stopout`] = plan?.[`${key}_stopout`] ?? '';
  }
  return values as PlanFormValues;
}

/** The camelCase payload of POST /admin/pricing and PUT /admin/pricing/{id}: empty leverages and stop outs are null. */
export function planPayload(values: PlanFormValues) {
  const parsed = PricingPlanRequest.parse(values);
  return { ...parsed, description: parsed.description ? parsed.description : null };
}

export interface PricingPlanFormProps {
  /** The plan being edited; absent for add-new. */
  plan?: PricingPlanDto;
  onSaved: () => void;
  onCancel?: () => void;
}

/** Add or edit a pricing plan, validated by the shared schema. */
export function PricingPlanForm({ plan, onSaved, onCancel }: PricingPlanFormProps) {
  const { t } = useTranslation();
  const form = useForm<PlanFormValues>({
    initialValues: initialValues(plan),
    validate: schemaResolver(PricingPlanRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const f = (name: keyof PlanFormValues & string) => fieldProps(form, name, t);

  const submit = useSaveItem(form, {
    url: '/admin/pricing',
    id: plan?.id,
    body: planPayload,
    savedMessage: t(plan ? 'Plan updated successfully' : 'Plan added successfully'),
    onSaved,
  });

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('Name')} withAsterisk autoComplete="off" {...f('name')} />
          <TextInput
            label={t('Price')}
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            rightSection={plan?.currency}
            {...f('price')}
          />
        </SimpleGrid>
        <Textarea label={t('Description')} rows={3} {...f('description')} />
        <Select
          label={t('Account type')}
          description={t(
            'Hedging: several positions per instrument, each closed on its own. Netting: one position per instrument; an order the other way reduces, closes or reverses it.',
          )}
          data={[
            { value: 'hedging', label: t('Hedging') },
            { value: 'netting', label: t('Netting') },
          ]}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          {...f('accountType')}
        />
        <RetailTermsFields form={form} />
        <Text size="xs" c="dimmed">
          {t("Leave a leverage empty to use each instrument's own, and a stop out empty for the default.")}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} verticalSpacing="xs">
          {PLAN_CLASSES.flatMap(({ key, label }) => [
            <NumberInput
              key={`${key}Leverage`}
              label={t(`${label} Leverage`)}
              placeholder={t("Instrument's own")}
              min={1}
              max={5000}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              {...f(`${key}Leverage`)}
            />,
            <NumberInput
              key={`${key}Stopout`}
              label={t(`${label} Stop Out (%)`)}
              placeholder={t('Default')}
              min={0}
              max={100}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              {...f(`${key}Stopout`)}
            />,
          ])}
        </SimpleGrid>
        <PlanTermsFields form={form} />
        <FormActions editing={Boolean(plan)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
