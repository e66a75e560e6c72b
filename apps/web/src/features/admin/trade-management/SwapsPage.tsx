import { Group, Paper, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CATEGORIES,
  SwapSettingsRequest,
  TRIPLE_SWAP_DAYS,
  type Category,
  type SwapSettingsResponse,
} from '@platform/domain';
import { apiGet, apiPost } from '../../../api/client.ts';
import { Loaded, UpdateButton, useSettingsSave } from './settingsForm.tsx';

export const SWAPS_QUERY_KEY = ['admin', 'swaps'] as const;

const LABELS: Record<Category, string> = {
  forex: 'Forex',
  commodity: 'Commodity',
  index: 'Index',
  stock: 'Stock',
  crypto: 'Crypto',
};
const DAY_LABELS: Record<(typeof TRIPLE_SWAP_DAYS)[number], string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
  none: 'Never',
};

function SwapsForm({ initial }: { initial: SwapSettingsResponse }) {
  const { t } = useTranslation();
  const form = useForm<SwapSettingsResponse>({
    initialValues: initial,
    validate: schemaResolver(SwapSettingsRequest, { sync: true }),
  });
  const save = useSettingsSave(form, SWAPS_QUERY_KEY);
  const submit = (values: SwapSettingsResponse) =>
    save(() => apiPost('/admin/swaps', values), t('Swap settings updated successfully'));
  const days = TRIPLE_SWAP_DAYS.map((d) => ({ value: d, label: t(DAY_LABELS[d]) }));

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'At the daily rollover (Site Settings) each open position pays or earns its swap; on the triple-swap day it counts three days. Weekends are charged only where switched on.',
          )}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} verticalSpacing="sm">
          {CATEGORIES.flatMap((c) => [
            <Select
              key={`${c}-day`}
              label={t(`${LABELS[c]} triple-swap day`)}
              data={days}
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              {...form.getInputProps(`tripleSwapDay.${c}`)}
            />,
            <Switch
              key={`${c}-weekends`}
              mt={{ base: 0, sm: 'xl' }}
              label={t(`${LABELS[c]}: charge Saturday and Sunday`)}
              {...form.getInputProps(`weekends.${c}`, { type: 'checkbox' })}
            />,
          ])}
        </SimpleGrid>
        <Group justify="flex-end">
          <UpdateButton submitting={form.submitting} />
        </Group>
      </Stack>
    </form>
  );
}

/** Swap Settings (/admin/swaps): each category's triple-swap weekday and whether weekends are charged. */
export function SwapsPage() {
  const query = useQuery({ queryKey: SWAPS_QUERY_KEY, queryFn: () => apiGet<SwapSettingsResponse>('/admin/swaps') });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Loaded query={query} minHeight={160}>
        {(data) => <SwapsForm key={JSON.stringify(data)} initial={data} />}
      </Loaded>
    </Paper>
  );
}
