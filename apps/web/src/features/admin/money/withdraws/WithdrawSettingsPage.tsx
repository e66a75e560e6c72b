import { Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WithdrawSettingsRequest, type MessageResponse, type WithdrawSettingsResponse } from '@platform/domain';
import { apiGet, apiPost } from '../../../../api/client.ts';
import { fieldProps } from '../../../../ui/form.ts';
import { Loaded, UpdateButton, useSettingsSave } from '../../trade-management/settingsForm.tsx';

export const WITHDRAW_SETTINGS_QUERY_KEY = ['admin', 'withdraws', 'settings'] as const;

interface WithdrawSettingsValues {
  feePercentage: string;
  feeFixed: string;
  [field: string]: string;
}

function WithdrawSettingsForm({ initial }: { initial: WithdrawSettingsResponse }) {
  const { t } = useTranslation();
  const form = useForm<WithdrawSettingsValues>({
    initialValues: { feePercentage: initial.feePercentage, feeFixed: initial.feeFixed },
    validate: schemaResolver(WithdrawSettingsRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const save = useSettingsSave(form, WITHDRAW_SETTINGS_QUERY_KEY);

  // Sent as the schema normalises them: exact decimal strings, never floats.
  const submit = (values: WithdrawSettingsValues) =>
    save(
      () => apiPost<MessageResponse>('/admin/withdraws/settings', WithdrawSettingsRequest.parse(values)),
      t('Withdraw settings updated successfully'),
    );

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('A withdrawal is charged the percentage of its amount plus the fixed fee.')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('Fee (%)')}
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            {...fieldProps(form, 'feePercentage', t)}
          />
          <TextInput
            label={t('Fee (Fixed)')}
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            {...fieldProps(form, 'feeFixed', t)}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <UpdateButton submitting={form.submitting} />
        </Group>
      </Stack>
    </form>
  );
}

/** Withdraw Settings (/admin/withdraws/settings): the percentage and fixed fee of every withdrawal. */
export function WithdrawSettingsPage() {
  const query = useQuery({
    queryKey: WITHDRAW_SETTINGS_QUERY_KEY,
    queryFn: () => apiGet<WithdrawSettingsResponse>('/admin/withdraws/settings'),
  });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Loaded query={query} minHeight={160}>
        {(data) => <WithdrawSettingsForm key={JSON.stringify(data)} initial={data} />}
      </Loaded>
    </Paper>
  );
}
