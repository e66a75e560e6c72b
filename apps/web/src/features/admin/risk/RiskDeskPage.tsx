import { useState } from 'react';
import { Button, Card, Group, Select, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, formatMoney, type ExposureResponse, type RealisedResponse } from '@platform/domain';
import { categoryLabel } from './categoryLabel.ts';
import { apiGet } from '../../../api/client.ts';
import { useCurrentUser } from '../../../api/hooks.ts';
import { ExposureTable } from './ExposureTable.tsx';
import { TopClients } from './TopClients.tsx';

/** The desk asks for the exposure this often (a cheap read of the risk engine: see docs/decisions.md). */
export const EXPOSURE_REFRESH_MS = 1000;
const REALISED_REFRESH_MS = 15_000;

type Mode = 'real' | 'demo' | 'all';

const tone = (v: number) => (v > 0 ? 'teal' : v < 0 ? 'red' : undefined);

function Figure({ label, value, currency }: { label: string; value: number | undefined; currency: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="lg" fw={700} c={value === undefined ? undefined : tone(value)} data-figure={label}>
        {value === undefined ? '—' : formatMoney(value, currency)}
      </Text>
    </Card>
  );
}

/**
 * The exposure desk (/admin/risk; admins the whole book, managers their customers' share): per instrument, the
 * clients' long, short and net volume, average prices, floating P/L and the house's opposite, live from the risk
 * engine every second; the house's realised P/L today and over a period from the ledger; the top clients.
 */
export function RiskDeskPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [mode, setMode] = useState<Mode>('real');
  const [category, setCategory] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  const exposure = useQuery({
    queryKey: ['admin', 'risk', 'exposure', mode, category],
    queryFn: () => apiGet<ExposureResponse>('/admin/risk/exposure', { mode, category: category ?? undefined }),
    refetchInterval: EXPOSURE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const period = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  const realised = useQuery({
    queryKey: ['admin', 'risk', 'realised', mode, period],
    queryFn: () => apiGet<RealisedResponse>('/admin/risk/realised', { mode, ...period }),
    refetchInterval: REALISED_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const currency = exposure.data?.currency ?? realised.data?.currency ?? 'USD';
  const clientsPl = exposure.data?.totals.client_floating_pl;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <SegmentedControl
            aria-label={t('Wallets')}
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[
              { value: 'real', label: t('Real') },
              { value: 'demo', label: t('Demo') },
              { value: 'all', label: t('All') },
            ]}
          />
          <Select
            size="xs"
            aria-label={t('Category')}
            placeholder={t('All categories')}
            clearable
            value={category}
            onChange={setCategory}
            data={CATEGORIES.map((c) => ({ value: c, label: t(categoryLabel(c)) }))}
            w={160}
          />
          <Text size="xs" c="dimmed">
            {t('Live: refreshed every second')}
          </Text>
        </Group>
        {me.data?.user.role_id === 1 ? (
          <Button component={Link} to="/admin/risk/limits" size="xs" variant="light">
            {t('Risk Limits')}
          </Button>
        ) : null}
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Figure
          label={t('House floating P/L')}
          value={clientsPl === undefined ? undefined : -clientsPl}
          currency={currency}
        />
        <Figure label={t('House realised P/L today')} value={realised.data?.today.house_pl} currency={currency} />
        <Figure label={t('House realised P/L, period')} value={realised.data?.period.house_pl} currency={currency} />
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {t('Period')}
          </Text>
          <Group gap={4} wrap="nowrap">
            <TextInput
              size="xs"
              type="date"
              flex={1}
              miw={0}
              aria-label={t('From')}
              value={from || (realised.data?.period.from ?? '')}
              onChange={(e) => setFrom(e.currentTarget.value)}
            />
            <TextInput
              size="xs"
              type="date"
              flex={1}
              miw={0}
              aria-label={t('To')}
              value={to || (realised.data?.period.to ?? '')}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
          </Group>
        </Card>
      </SimpleGrid>

      <Card withBorder padding={0}>
        <ExposureTable rows={exposure.data?.data ?? []} currency={currency} />
      </Card>

      <TopClients mode={mode} />
    </Stack>
  );
}
