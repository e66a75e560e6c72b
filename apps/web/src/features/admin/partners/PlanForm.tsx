import { useState } from 'react';
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, type PartnerPlanDto, type PartnerPlanRequest } from '@platform/domain';
import { apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const CATEGORY_LABELS: Record<string, string> = {
  forex: 'Forex',
  commodity: 'Commodities',
  index: 'Indices',
  stock: 'Stocks',
  crypto: 'Crypto',
};

const blank = (): PartnerPlanRequest => ({
  name: '',
  currency: 'USD',
  perLot: { forex: '0', commodity: '0', index: '0', stock: '0', crypto: '0' },
  spreadShare: '0',
  commissionShare: '0',
  cpa: '0',
  cpaMinDeposit: '0',
  levels: ['100'],
  countDemo: false,
  minHoldSeconds: 0,
});

const fromPlan = (p: PartnerPlanDto): PartnerPlanRequest => ({
  name: p.name,
  currency: p.currency,
  perLot: p.perLot as PartnerPlanRequest['perLot'],
  spreadShare: p.spreadShare,
  commissionShare: p.commissionShare,
  cpa: p.cpa,
  cpaMinDeposit: p.cpaMinDeposit,
  levels: p.levels,
  countDemo: p.countDemo,
  minHoldSeconds: p.minHoldSeconds,
});

/**
 * Add or edit a commission plan. Editing adds a version of the terms from the chosen time (now when empty): deals
 * closed before it keep the terms they were made under. The server's messages show under the fields.
 */
export function PlanForm({ plan, onClose }: { plan: PartnerPlanDto | null; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [v, setV] = useState<PartnerPlanRequest>(plan ? fromPlan(plan) : blank());
  const [levels, setLevels] = useState((plan?.levels ?? ['100']).map((l) => String(Number(l))).join(', '));
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<PartnerPlanRequest>) => setV((old) => ({ ...old, ...patch }));
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

  const save = async () => {
    setBusy(true);
    setErrors({});
    const body = {
      ...v,
      levels: levels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
      ...(plan && effectiveFrom ? { effectiveFrom: new Date(effectiveFrom).toISOString() } : {}),
    };
    try {
      if (plan) await apiPut(`/admin/partners/plans/${plan.id}`, body);
      else await apiPost('/admin/partners/plans', body);
      toastSuccess(t(plan ? 'Plan updated' : 'Plan created'));
      onClose(true);
    } catch (err) {
      const fields = (err as { errors?: Record<string, string> }).errors;
      if (fields) setErrors(fields);
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={() => onClose(false)} title={t(plan ? 'Edit plan' : 'Add plan')} size="lg">
      <Stack>
        <SimpleGrid cols={2}>
          <TextInput
            label={t('Name')}
            value={v.name}
            error={errors.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <TextInput
            label={t('Currency')}
            value={v.currency}
            error={errors.currency}
            onChange={(e) => set({ currency: e.currentTarget.value })}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 5 }}>
          {CATEGORIES.map((c) => (
            <TextInput
              key={c}
              label={`${t(CATEGORY_LABELS[c])} ${t('per lot')}`}
              value={text(v.perLot[c])}
              error={errors[`perLot.${c}`]}
              onChange={(e) => set({ perLot: { ...v.perLot, [c]: e.currentTarget.value } })}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={2}>
          <TextInput
            label={t('Spread share %')}
            value={text(v.spreadShare)}
            error={errors.spreadShare}
            onChange={(e) => set({ spreadShare: e.currentTarget.value })}
          />
          <TextInput
            label={t('Commission share %')}
            value={text(v.commissionShare)}
            error={errors.commissionShare}
            onChange={(e) => set({ commissionShare: e.currentTarget.value })}
          />
          <TextInput
            label={t('CPA')}
            value={text(v.cpa)}
            error={errors.cpa}
            onChange={(e) => set({ cpa: e.currentTarget.value })}
          />
          <TextInput
            label={t('CPA minimum first deposit')}
            value={text(v.cpaMinDeposit)}
            error={errors.cpaMinDeposit}
            onChange={(e) => set({ cpaMinDeposit: e.currentTarget.value })}
          />
          <TextInput
            label={t('Levels % (level 1 first)')}
            description={t('e.g. 100, 20, 5')}
            value={levels}
            error={errors.levels ?? Object.entries(errors).find(([k]) => k.startsWith('levels.'))?.[1]}
            onChange={(e) => setLevels(e.currentTarget.value)}
          />
          <NumberInput
            label={t('Minimum holding time (seconds)')}
            value={Number(v.minHoldSeconds ?? 0)}
            min={0}
            error={errors.minHoldSeconds}
            onChange={(n) => set({ minHoldSeconds: Number(n) || 0 })}
          />
        </SimpleGrid>
        <Switch
          label={t('Demo trades count')}
          checked={v.countDemo ?? false}
          onChange={(e) => set({ countDemo: e.currentTarget.checked })}
        />
        {plan && (
          <TextInput
            type="datetime-local"
            label={t('New terms apply from')}
            description={t('Empty: from now. Deals closed before keep their terms.')}
            value={effectiveFrom}
            error={errors.effectiveFrom}
            onChange={(e) => setEffectiveFrom(e.currentTarget.value)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            {t('Cancel')}
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
