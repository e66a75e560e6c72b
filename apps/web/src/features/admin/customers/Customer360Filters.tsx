import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  Popover,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CUSTOMER_360_FILTERS,
  CUSTOMER_360_SORTS,
  KYC_LIST_STATUSES,
  type Customer360Filters as Filters,
  type Customer360Sort,
} from '@platform/domain';
import type { ServerSort } from '../../../ui/data-table/index.ts';
import { kycLabel } from './customer360.tsx';

/** What a list asks the server for by its customers' figures: the filters and the sort. */
export interface Customer360View {
  filters: Filters;
  sort: ServerSort | null;
}
export const NO_CUSTOMER_FILTERS: Customer360View = { filters: {}, sort: null };

const SORT_LABELS: Record<Customer360Sort, string> = {
  equity: 'Equity',
  balance: 'Balance',
  ftd_at: 'First deposit date',
  ftd_amount: 'First deposit amount',
  kyc_status: 'KYC status',
  last_login_at: 'Last login',
  online: 'Online first',
};
const AMOUNT = /^-?\d{1,14}(\.\d{1,8})?$/;
/** The choice that sets nothing (the selects' "Any" and "Newest first"). */
const ANY = 'any';
type Draft = Record<(typeof CUSTOMER_360_FILTERS)[number], string> & { sort: string; dir: 'asc' | 'desc' };

const draftOf = (v: Customer360View): Draft => ({
  ...(Object.fromEntries(CUSTOMER_360_FILTERS.map((k) => [k, v.filters[k] ?? ''])) as Record<
    (typeof CUSTOMER_360_FILTERS)[number],
    string
  >),
  sort: v.sort?.key ?? '',
  dir: v.sort?.dir ?? 'desc',
});

/** The problems of a draft: amounts that are not amounts, minimums above maximums, a date range backwards. */
function problems(d: Draft): Partial<Record<keyof Draft, string>> {
  const out: Partial<Record<keyof Draft, string>> = {};
  for (const k of ['balanceMin', 'balanceMax', 'equityMin', 'equityMax'] as const)
    if (d[k].trim() && !AMOUNT.test(d[k].trim())) out[k] = 'Enter an amount';
  for (const [min, max] of [
    ['balanceMin', 'balanceMax'],
    ['equityMin', 'equityMax'],
  ] as const)
    if (!out[min] && !out[max] && d[min].trim() && d[max].trim() && Number(d[min]) > Number(d[max]))
      out[min] = 'The minimum must not be above the maximum.';
  if (d.ftdFrom && d.ftdTo && d.ftdFrom > d.ftdTo) out.ftdFrom = 'The start date must not be after the end date.';
  return out;
}

/**
 * The Customer 360 controls of a list: a Filters button (with the number of filters on) opening a panel to sort by a
 * figure and filter by KYC state, first deposit (yes/no, dates), balance and equity ranges and presence, all applied
 * by the server. Apply sends the panel; Clear takes every filter and the sort off.
 */
export function Customer360Filters({
  value,
  onChange,
}: {
  value: Customer360View;
  onChange: (v: Customer360View) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(value));
  const errors = problems(draft);
  const set = (k: keyof Draft) => (v: string | null) => setDraft((d) => ({ ...d, [k]: v ?? '' }));
  const on = Object.values(value.filters).filter(Boolean).length;

  const apply = () => {
    if (Object.keys(errors).length > 0) return;
    const filters: Filters = {};
    for (const k of CUSTOMER_360_FILTERS) {
      const v = draft[k].trim();
      if (v) (filters as Record<string, string>)[k] = v;
    }
    onChange({ filters, sort: draft.sort ? { key: draft.sort, dir: draft.dir } : null });
    setOpened(false);
  };
  const amount = (k: 'balanceMin' | 'balanceMax' | 'equityMin' | 'equityMax', label: string) => (
    <TextInput
      label={t(label)}
      inputMode="decimal"
      value={draft[k]}
      onChange={(e) => set(k)(e.currentTarget.value)}
      error={errors[k] ? t(errors[k]) : undefined}
    />
  );
  const choice = (k: 'ftd' | 'online', labels: [string, string, string]) => (
    <SegmentedControl
      fullWidth
      size="xs"
      value={draft[k] || ANY}
      onChange={(v) => set(k)(v === ANY ? '' : v)}
      data={[
        { value: ANY, label: t(labels[0]) },
        { value: 'yes', label: t(labels[1]) },
        { value: 'no', label: t(labels[2]) },
      ]}
    />
  );

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={380}
      position="bottom-end"
      shadow="md"
      trapFocus
      onOpen={() => setDraft(draftOf(value))}
    >
      <Popover.Target>
        <Button
          variant={on > 0 || value.sort ? 'filled' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          rightSection={
            on > 0 ? (
              <Badge size="xs" circle>
                {on}
              </Badge>
            ) : undefined
          }
          onClick={() => setOpened((o) => !o)}
        >
          {t('Filters')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" role="group" aria-label={t('Customer filters')}>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <Select
              label={t('Sort by')}
              style={{ flex: 1 }}
              data={[
                { value: ANY, label: t('Newest first') },
                ...CUSTOMER_360_SORTS.map((s) => ({ value: s, label: t(SORT_LABELS[s]) })),
              ]}
              value={draft.sort || ANY}
              allowDeselect={false}
              onChange={(v) => set('sort')(v === ANY ? '' : v)}
              comboboxProps={{ withinPortal: false }}
            />
            <SegmentedControl
              size="xs"
              disabled={!draft.sort}
              value={draft.dir}
              onChange={(v) => setDraft((d) => ({ ...d, dir: v === 'asc' ? 'asc' : 'desc' }))}
              data={[
                { value: 'desc', label: t('High → low') },
                { value: 'asc', label: t('Low → high') },
              ]}
            />
          </Group>
          <Select
            label={t('KYC')}
            data={[
              { value: ANY, label: t('Any') },
              ...KYC_LIST_STATUSES.map((s) => ({ value: s, label: t(kycLabel(s)) })),
            ]}
            value={draft.kyc || ANY}
            allowDeselect={false}
            onChange={(v) => set('kyc')(v === ANY ? '' : v)}
            comboboxProps={{ withinPortal: false }}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('First deposit')}
            </Text>
            {choice('ftd', ['Any', 'Made', 'None yet'])}
          </div>
          <SimpleGrid cols={2} spacing="xs">
            <TextInput
              type="date"
              label={t('FTD from')}
              value={draft.ftdFrom}
              onChange={(e) => set('ftdFrom')(e.currentTarget.value)}
              error={errors.ftdFrom ? t(errors.ftdFrom) : undefined}
            />
            <TextInput
              type="date"
              label={t('FTD to')}
              value={draft.ftdTo}
              onChange={(e) => set('ftdTo')(e.currentTarget.value)}
            />
            {amount('balanceMin', 'Balance from')}
            {amount('balanceMax', 'Balance to')}
            {amount('equityMin', 'Equity from')}
            {amount('equityMax', 'Equity to')}
          </SimpleGrid>
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('Presence')}
            </Text>
            {choice('online', ['Any', 'Online', 'Offline'])}
          </div>
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              onClick={() => {
                setDraft(draftOf(NO_CUSTOMER_FILTERS));
                onChange(NO_CUSTOMER_FILTERS);
                setOpened(false);
              }}
            >
              {t('Clear')}
            </Button>
            <Button onClick={apply} disabled={Object.keys(errors).length > 0}>
              {t('Apply')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
