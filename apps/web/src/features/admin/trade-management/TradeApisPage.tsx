import { Group, Paper, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  API_SETTING_KEYS,
  API_SETTING_NAMES,
  API_SETTING_SCHEMAS,
  type ApiSettingDto,
  type ApiSettingKey,
  type ApiSettingsResponse,
  type MessageResponse,
} from '@platform/domain';
import { apiGet, apiPut } from '../../../api/client.ts';
import { fieldProps } from '../../../ui/form.ts';
import { Loaded, UpdateButton, useSettingsSave } from './settingsForm.tsx';

export const API_SETTINGS_QUERY_KEY = ['admin', 'apis'] as const;

interface ApiFormValues {
  key: ApiSettingKey;
  value1: string;
  value2: string;
  value3: string;
  [field: string]: string;
}

type Field = 'value1' | 'value2' | 'value3';

/** The inputs of each provider card (back-office spec §3 External API setting). */
const FIELDS: Record<ApiSettingKey, Array<{ name: Field; label: string; secret?: boolean; readOnly?: boolean }>> = {
  polygonAPI: [{ name: 'value1', label: 'API Key', secret: true }],
  eodAPI: [{ name: 'value1', label: 'API Key', secret: true }],
  oandaAPI: [
    { name: 'value1', label: 'Account Number' },
    { name: 'value2', label: 'API Key', secret: true },
  ],
  currencyAPI: [
    { name: 'value1', label: 'API Key', secret: true },
    { name: 'value2', label: 'Remaining Quota', readOnly: true },
    { name: 'value3', label: 'Monthly Limit', readOnly: true },
  ],
  voiso: [
    { name: 'value1', label: 'Cluster ID' },
    { name: 'value2', label: 'API Key', secret: true },
    // The server's address for Voiso's call-ended reports (Call Outcome Logging), which fill the call log's durations.
    { name: 'value3', label: 'Call Outcome Logging URL', readOnly: true },
  ],
};

/** What each provider's key switches on, shown under the card title. */
const DESCRIPTIONS: Record<ApiSettingKey, string> = {
  polygonAPI: 'Live forex and crypto prices.',
  eodAPI: 'Live stock prices.',
  oandaAPI: 'Live commodity and index prices, and forex without Polygon.',
  currencyAPI: 'Conversion rates for currencies no forex pair links.',
  voiso: 'Click-to-call for the CRM.',
};

function ApiSettingCard({ setting }: { setting: ApiSettingDto }) {
  const { t } = useTranslation();
  const { key } = setting;
  const form = useForm<ApiFormValues>({
    initialValues: {
      key,
      value1: setting.value1 ?? '',
      value2: setting.value2 ?? '',
      value3: key === 'oandaAPI' ? setting.value3 || 'fxpractice' : (setting.value3 ?? ''),
    },
    validate: schemaResolver(API_SETTING_SCHEMAS[key], { sync: true }),
    validateInputOnBlur: true,
  });
  const name = t(API_SETTING_NAMES[key]);
  const save = useSettingsSave(form, API_SETTINGS_QUERY_KEY);

  const submit = async (values: ApiFormValues) => {
    // Read-only quota fields are the server's; only the fields this provider edits are sent.
    const payload: Record<string, string> = { key };
    for (const f of FIELDS[key]) if (!f.readOnly) payload[f.name] = values[f.name];
    if (key === 'oandaAPI') payload.value3 = values.value3;
    await save(
      () => apiPut<MessageResponse>(`/admin/apis/${key}`, payload),
      t('{{name}} updated successfully', { name }),
    );
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid={`api-card-${key}`}>
      <form onSubmit={form.onSubmit(submit)} noValidate aria-label={name}>
        <Stack gap="sm">
          <div>
            <Title order={4}>{name}</Title>
            <Text size="sm" c="dimmed">
              {t(DESCRIPTIONS[key])}
            </Text>
          </div>
          {FIELDS[key].map((f) => {
            const props = fieldProps(form, f.name, t);
            if (f.readOnly && key === 'voiso')
              return (
                <TextInput
                  key={f.name}
                  label={t(f.label)}
                  description={t('Paste it in Voiso, System Settings, so the call log shows each call’s duration.')}
                  value={
                    setting.value3 ? `${window.location.origin}${setting.value3}` : t('Shown once an API key is saved')
                  }
                  readOnly
                />
              );
            if (f.readOnly)
              return <TextInput key={f.name} label={t(f.label)} value={form.values[f.name] || '0'} readOnly disabled />;
            return f.secret ? (
              <PasswordInput key={f.name} label={t(f.label)} withAsterisk autoComplete="off" {...props} />
            ) : (
              <TextInput key={f.name} label={t(f.label)} withAsterisk autoComplete="off" {...props} />
            );
          })}
          {key === 'oandaAPI' && (
            <Switch
              label={t('Practice Mode')}
              checked={form.values.value3 === 'fxpractice'}
              onChange={(e) => form.setFieldValue('value3', e.currentTarget.checked ? 'fxpractice' : 'fxtrade')}
            />
          )}
          <Group justify="flex-end">
            <UpdateButton submitting={form.submitting} />
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Trade APIs (/admin/apis): a two-column grid, one card per provider setting (back-office spec §2). */
export function TradeApisPage() {
  const query = useQuery({
    queryKey: API_SETTINGS_QUERY_KEY,
    queryFn: () => apiGet<ApiSettingsResponse>('/admin/apis'),
  });
  return (
    <Loaded query={query}>
      {(settings) => {
        const byKey = new Map(settings.map((s) => [s.key, s]));
        return (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {API_SETTING_KEYS.map((key) => {
              const setting = byKey.get(key) ?? {
                key,
                value1: null,
                value2: null,
                value3: null,
                value4: null,
                value5: null,
                updated_at: null,
              };
              // Keyed by the saved time so a save (or another admin's) starts the card from the stored values.
              return <ApiSettingCard key={`${key}:${setting.updated_at ?? ''}`} setting={setting} />;
            })}
          </SimpleGrid>
        );
      }}
    </Loaded>
  );
}
