import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Image,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SiteSettingsDto } from '@platform/domain';
import { ApiError, apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { queryKeys } from '../../../api/hooks.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

export const SITE_SETTINGS_KEY = ['admin', 'site-settings'] as const;

type Values = Omit<SiteSettingsDto, 'currencies' | 'recaptchaSecretSet' | 'favicon' | 'appLogo' | 'authBackground'> & {
  recaptchaSecretKey: string;
};
type FileField = 'favicon' | 'appLogo' | 'authBackground';
const SWITCHES: Array<[keyof Values, string]> = [
  ['kycDeposit', 'KYC Required For Deposit'],
  ['kycWithdraw', 'KYC Required For Withdraw'],
  ['kycTrade', 'KYC Required For Trade'],
  ['recaptcha', 'Recaptcha'],
  ['pricingPlan', 'Pricing Plan'],
  ['emailVerify', 'Email Verification (Registration)'],
  ['showUserInfoAgent', 'Show Email & Phone in Agent Dashboard'],
  ['riskWarning', 'Risk Warning On Client Pages'],
];

function SettingsForm({ settings }: { settings: SiteSettingsDto }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { currencies, recaptchaSecretSet, favicon, appLogo, authBackground, ...values } = settings;
  const form = useForm<Values>({ initialValues: { ...values, recaptchaSecretKey: '' } });
  const [files, setFiles] = useState<Partial<Record<FileField, File | null>>>({});
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = new FormData();
      for (const [k, val] of Object.entries(v))
        body.append(k, typeof val === 'boolean' ? (val ? 'on' : 'off') : String(val ?? ''));
      for (const [k, f] of Object.entries(files)) if (f) body.append(k, f);
      return apiPost('/admin/settings', body);
    },
    onSuccess: async () => {
      toastSuccess(t('Settings updated successfully'));
      setFiles({});
      // Title, favicon, logo and background change at once on this page; other tabs load them on their next visit.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.branding }),
        queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_KEY }),
      ]);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    },
  });
  const upload = (field: FileField, label: string, current: string | null) => (
    <Stack gap={4}>
      <FileInput
        label={t(label)}
        accept="image/png,image/jpeg,image/webp"
        clearable
        value={files[field] ?? null}
        onChange={(f) => setFiles((s) => ({ ...s, [field]: f }))}
        placeholder={t('Choose an image')}
      />
      {current && <Image src={current} alt={t(label)} h={40} w="auto" fit="contain" />}
    </Stack>
  );
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack>
        <Paper withBorder p="md" radius="md">
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            {upload('favicon', 'Favicon', favicon)}
            {upload('appLogo', 'App Logo', appLogo)}
            {upload('authBackground', 'Auth Background', authBackground)}
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput label={t('App Name')} withAsterisk {...form.getInputProps('appName')} />
            <TextInput
              label={t('App URL')}
              readOnly
              description={t('The address the server runs at (APP_URL setting, or its port); used in mailed links.')}
              {...form.getInputProps('appUrl')}
            />
            <Select label={t('App Currency')} withAsterisk data={currencies} {...form.getInputProps('appCurrency')} />
            <TextInput
              label={`${t('Demo Wallet Initial Balance')} (${form.values.appCurrency})`}
              {...form.getInputProps('demoBalance')}
            />
            <TextInput label={t('ReCaptcha Client Key')} {...form.getInputProps('recaptchaClientKey')} />
            <TextInput
              label={t('ReCaptcha Secret Key')}
              type="password"
              autoComplete="off"
              description={recaptchaSecretSet ? t('A secret is set; leave blank to keep it.') : t('Not set')}
              {...form.getInputProps('recaptchaSecretKey')}
            />
            <TextInput label={t('WhatsApp Support Number')} {...form.getInputProps('whatsapp')} />
            <TextInput label={t('Webhook API Key (Leads, optional)')} {...form.getInputProps('webhookApiKeyLeads')} />
            <TextInput
              label={t('Rollover Time (HH:MM)')}
              description={t('Positions open at this time each day pay or earn their swap.')}
              placeholder="17:00"
              {...form.getInputProps('rolloverTime')}
            />
            <TextInput
              label={t('Rollover Time Zone')}
              description={t('An IANA time zone, e.g. America/New_York or UTC.')}
              placeholder="America/New_York"
              {...form.getInputProps('rolloverTimezone')}
            />
            <TextInput
              label={t('Losing Retail Accounts (%)')}
              description={t('Stated in the risk warning; leave blank to leave it out.')}
              placeholder="74.5"
              {...form.getInputProps('riskWarningPercent')}
            />
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {SWITCHES.map(([key, label]) => (
              <Switch key={key} label={t(label)} {...form.getInputProps(key, { type: 'checkbox' })} />
            ))}
          </SimpleGrid>
        </Paper>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('Update')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Site Settings (/admin/settings): branding, keys and the platform switches; each takes effect at once. */
export function SiteSettingsPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: SITE_SETTINGS_KEY, queryFn: () => apiGet<SiteSettingsDto>('/admin/settings') });
  const [version, setVersion] = useState(0);
  // A fresh form after each save, so uploads and the secret field start empty again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refetch time is the trigger, not an input
  useEffect(() => setVersion((v) => v + 1), [query.dataUpdatedAt]);
  if (query.isError) return <Alert color="red">{errorMessage(query.error, t('Something went wrong'))}</Alert>;
  if (!query.data) return <Text c="dimmed">{t('Loading...')}</Text>;
  return (
    <Stack>
      <Title order={5} c="dimmed" fw={400}>
        {t('Changes apply at once, on both sites, without a restart.')}
      </Title>
      <SettingsForm key={version} settings={query.data} />
    </Stack>
  );
}
