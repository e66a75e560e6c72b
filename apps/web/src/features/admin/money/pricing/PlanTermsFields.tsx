import { Divider, NumberInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { CommissionBasis, CommissionCharge, PricingPlanDto } from '@platform/domain';
import { fieldProps } from '../../../../ui/form.ts';

const CLASSES = [
  { key: 'forex', label: 'Forex' },
  { key: 'commodity', label: 'Commodity' },
  { key: 'index', label: 'Index' },
  { key: 'stock', label: 'Stock' },
  { key: 'crypto', label: 'Crypto' },
] as const;
type Numeric = number | string;

/** The plan's commission, margin-call and swap-free terms as the form holds them. */
export type PlanTermsValues = Record<`${(typeof CLASSES)[number]['key']}Commission`, string> & {
  commissionBasis: CommissionBasis;
  commissionCharge: CommissionCharge;
  marginCallLevel: Numeric;
  marginCallRearm: Numeric;
  swapFree: boolean;
  swapFreeFee: string;
  swapFreeDays: Numeric;
};

/** A new plan starts with today's behaviour: no commission, no margin call, swaps paid. */
export function planTermsOf(plan: PricingPlanDto | undefined): PlanTermsValues {
  const amount = (v: string | undefined) => (v === undefined ? '0' : String(Number(v)));
  return {
    forexCommission: amount(plan?.forex_commission),
    commodityCommission: amount(plan?.commodity_commission),
    indexCommission: amount(plan?.index_commission),
    stockCommission: amount(plan?.stock_commission),
    cryptoCommission: amount(plan?.crypto_commission),
    commissionBasis: plan?.commission_basis ?? 'lot',
    commissionCharge: plan?.commission_charge ?? 'both',
    marginCallLevel: plan?.margin_call_level ?? '',
    marginCallRearm: plan?.margin_call_rearm ?? 10,
    swapFree: plan?.swap_free ?? false,
    swapFreeFee: amount(plan?.swap_free_fee),
    swapFreeDays: plan?.swap_free_days ?? 0,
  };
}

/** Commission, margin call and swap-free inputs of the pricing plan form. */
export function PlanTermsFields<V extends PlanTermsValues>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation();
  const f = (name: keyof PlanTermsValues & string, type?: 'checkbox') =>
    fieldProps(form, name, t, type ? { type } : undefined);
  const basis = form.values.commissionBasis === 'million' ? t('per million') : t('per lot');
  return (
    <>
      <Divider label={t('Commission')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} verticalSpacing="xs">
        <Select
          label={t('Commission basis')}
          data={[
            { value: 'lot', label: t('Per lot') },
            { value: 'million', label: t('Per million of notional') },
          ]}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          {...f('commissionBasis')}
        />
        <Select
          label={t('Charged at')}
          data={[
            { value: 'open', label: t('Open') },
            { value: 'close', label: t('Close') },
            { value: 'both', label: t('Open and close') },
          ]}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          {...f('commissionCharge')}
        />
        {CLASSES.map(({ key, label }) => (
          <TextInput
            key={key}
            label={`${t(`${label} Commission`)} (${basis})`}
            inputMode="decimal"
            autoComplete="off"
            {...f(`${key}Commission`)}
          />
        ))}
      </SimpleGrid>
      <Divider label={t('Margin call and swaps')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} verticalSpacing="xs">
        <NumberInput
          label={t('Margin Call Level (%)')}
          placeholder={t('Off')}
          min={1}
          max={1000}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          {...f('marginCallLevel')}
        />
        <NumberInput
          label={t('Re-arm above the level by (points)')}
          min={0}
          max={1000}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          {...f('marginCallRearm')}
        />
        <Switch label={t('Swap-free (Islamic) account')} mt="sm" {...f('swapFree', 'checkbox')} />
        <span />
        <TextInput
          label={t('Daily administration fee (per position)')}
          inputMode="decimal"
          autoComplete="off"
          disabled={!form.values.swapFree}
          {...f('swapFreeFee')}
        />
        <NumberInput
          label={t('Free days before the fee')}
          min={0}
          max={3650}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          disabled={!form.values.swapFree}
          {...f('swapFreeDays')}
        />
      </SimpleGrid>
    </>
  );
}
