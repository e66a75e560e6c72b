import { Group, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SPREAD_KEYS,
  SpreadsRequest,
  type MessageResponse,
  type SpreadKey,
  type SpreadsResponse,
} from '@platform/domain';
import { apiGet, apiPost } from '../../../api/client.ts';
import { fieldProps } from '../../../ui/form.ts';
import { Loaded, UpdateButton, useSettingsSave } from './settingsForm.tsx';

export const SPREADS_QUERY_KEY = ['admin', 'spreads'] as const;

type SpreadValues = Record<SpreadKey, number | string>;

const LABELS: Record<SpreadKey, string> = {
  spread_forex: 'Forex Spread',
  spread_commodity: 'Commodity Spread',
  spread_index: 'Index Spread',
  spread_crypto: 'Crypto Spread',
  spread_stock: 'Stock Spread',
};

function SpreadsForm({ initial }: { initial: SpreadsResponse }) {
  const { t } = useTranslation();
  const form = useForm<SpreadValues>({
    initialValues: { ...initial },
    validate: schemaResolver(SpreadsRequest, { sync: true }),
    validateInputOnBlur: true,
  });

  const save = useSettingsSave(form, SPREADS_QUERY_KEY);
  const submit = (values: SpreadValues) =>
    save(() => apiPost<MessageResponse>('/admin/spreads', values), t('Spreads updated successfully'));

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'The spread charged on each trade is the quoted spread times this value (1 = the quoted spread, 0 = none).',
          )}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {SPREAD_KEYS.map((key) => (
            <NumberInput
              key={key}
              label={t(LABELS[key])}
              withAsterisk
              min={0}
              decimalScale={8}
              allowNegative={false}
              {...fieldProps(form, key, t)}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <UpdateButton submitting={form.submitting} />
        </Group>
      </Stack>
    </form>
  );
}

/** Spread Settings (/admin/spreads): one form of five numbers, initialised from the spread_ settings records. */
export function SpreadsPage() {
  const query = useQuery({ queryKey: SPREADS_QUERY_KEY, queryFn: () => apiGet<SpreadsResponse>('/admin/spreads') });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Loaded query={query} minHeight={160}>
        {(data) => <SpreadsForm key={JSON.stringify(data)} initial={data} />}
      </Loaded>
    </Paper>
  );
}
