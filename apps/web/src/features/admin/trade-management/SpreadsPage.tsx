import { Button, Center, Group, Loader, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, SPREAD_KEYS, SpreadsRequest, type MessageResponse, type SpreadKey, type SpreadsResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { applyServerErrors, fieldProps } from '../../../ui/form.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

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
  const queryClient = useQueryClient();
  const form = useForm<SpreadValues>({
    initialValues: { ...initial },
    validate: schemaResolver(SpreadsRequest, { sync: true }),
    validateInputOnBlur: true,
  });

  const submit = async (values: SpreadValues) => {
    try {
      await apiPost<MessageResponse>('/admin/spreads', values);
      toastSuccess(t('Spreads updated successfully'));
      await queryClient.invalidateQueries({ queryKey: SPREADS_QUERY_KEY });
    } catch (err) {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    }
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('The spread charged on each trade is the quoted spread times this value (1 = the quoted spread, 0 = none).')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {SPREAD_KEYS.map((key) => (
            <NumberInput key={key} label={t(LABELS[key])} withAsterisk min={0} decimalScale={8} allowNegative={false} {...fieldProps(form, key, t)} />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} disabled={form.submitting}>
            {t('Update')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Spread Settings (/admin/spreads): one form of five numbers, initialised from the spread_ settings records. */
export function SpreadsPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: SPREADS_QUERY_KEY, queryFn: () => apiGet<SpreadsResponse>('/admin/spreads') });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      {query.isLoading ? (
        <Center mih={160}>
          <Loader />
        </Center>
      ) : query.isError || !query.data ? (
        <Text c="red" ta="center">
          {errorMessage(query.error, t(GENERIC_ERROR))}
        </Text>
      ) : (
        <SpreadsForm key={JSON.stringify(query.data)} initial={query.data} />
      )}
    </Paper>
  );
}
