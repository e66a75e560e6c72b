import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart, PieChart } from '@mantine/charts';
import { Alert, Button, ColorSwatch, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { DashboardResponse } from '@platform/domain';
import { apiGet, errorMessage } from '../../../api/client.ts';
import { DayMonthYearInput } from '../../../ui/DayMonthYearInput.tsx';

const CATEGORY_LABELS: Record<string, string> = {
  forex: 'Forex',
  commodity: 'Commodities',
  index: 'Indices',
  stock: 'Stocks',
  crypto: 'Crypto',
};
const PIE_COLORS = ['blue.6', 'yellow.6', 'grape.6', 'teal.6', 'orange.6'];
const iso = (d: string | null) => (d ? dayjs(d).format('YYYY-MM-DD') : undefined);

function Card({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" c={color} ff="monospace" data-testid={`card-${label}`}>
        {value}
      </Text>
    </Paper>
  );
}

/**
 * The admin dashboard (/admin): totals for a date range (all time by default), the last 7 days of money in and out,
 * and trades per market. Says which money it counts: real wallets in the app currency.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ['admin', 'dashboard', iso(from), iso(to)],
    queryFn: () => apiGet<DashboardResponse>('/admin/dashboard', { from: iso(from), to: iso(to) }),
    placeholderData: keepPreviousData,
  });
  const d = query.data;
  const money = (v: string) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: d?.currency ?? 'USD' }).format(Number(v));

  return (
    <Stack>
      <Group align="flex-end">
        <DayMonthYearInput
          label={t('From')}
          value={from}
          onChange={setFrom}
          maxDate={to ?? undefined}
          clearable
          w={160}
        />
        <DayMonthYearInput label={t('To')} value={to} onChange={setTo} minDate={from ?? undefined} clearable w={160} />
        <Button
          variant="default"
          onClick={() => {
            setFrom(null);
            setTo(null);
          }}
          disabled={!from && !to}
        >
          {t('Reset')}
        </Button>
      </Group>
      {query.isError && <Alert color="red">{errorMessage(query.error, t('Something went wrong'))}</Alert>}
      {d && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
            <Card label={t('Total Deposits')} value={money(d.totalDeposits)} />
            <Card label={t('Total Withdraws')} value={money(d.totalWithdraws)} />
            <Card label={t('Total Trades')} value={String(d.totalTrades)} />
            <Card label={t('Total Users')} value={String(d.totalUsers)} />
            <Card
              label={t('Profit/Loss')}
              value={money(d.totalProLoss)}
              color={Number(d.totalProLoss) >= 0 ? 'teal' : 'red'}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" data-testid="dashboard-note">
            {t(
              'Totals in {{currency}}, real wallets only: demo money is not the broker’s. Profit/Loss is the broker’s result (the opposite of clients’ realised profit or loss).',
              { currency: d.currency },
            )}{' '}
            {d.otherCurrencies.length === 0
              ? t('No wallet in another currency has activity in this range.')
              : `${t('Other currencies (not converted):')} ${d.otherCurrencies.map((c) => `${c.currency} ${t('deposits')} ${c.deposits}, ${t('withdraws')} ${c.withdraws}, P/L ${c.proLoss}`).join('; ')}`}
          </Text>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Paper withBorder p="md" radius="md">
              <Title order={5} mb="md">
                {t('Recent Transactions')}
              </Title>
              <BarChart
                h={260}
                data={d.last7DaysTransactions.categories.map((day, i) => ({
                  day: dayjs(day).format('DD/MM'),
                  [t('Deposits')]: d.last7DaysTransactions.series[0]?.data[i] ?? 0,
                  [t('Withdraws')]: d.last7DaysTransactions.series[1]?.data[i] ?? 0,
                }))}
                dataKey="day"
                series={[
                  { name: t('Deposits'), color: 'teal.6' },
                  { name: t('Withdraws'), color: 'red.6' },
                ]}
                withLegend
              />
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Title order={5} mb="md">
                {t('Trade Engagement')}
              </Title>
              {d.tradeEngagement.data.every((n) => n === 0) ? (
                <Text c="dimmed">{t('No trades in this range.')}</Text>
              ) : (
                <Group justify="center" gap="xl">
                  <PieChart
                    size={220}
                    withLabelsLine
                    withLabels
                    labelsType="percent"
                    withTooltip
                    data={d.tradeEngagement.categories.map((c, i) => ({
                      name: t(CATEGORY_LABELS[c] ?? c),
                      value: d.tradeEngagement.data[i],
                      color: PIE_COLORS[i % PIE_COLORS.length],
                    }))}
                  />
                  <Stack gap={4}>
                    {d.tradeEngagement.categories.map((c, i) => (
                      <Group key={c} gap={6}>
                        <ColorSwatch
                          size={12}
                          color={`var(--mantine-color-${PIE_COLORS[i % PIE_COLORS.length].replace('.', '-')})`}
                        />
                        <Text size="sm">
                          {t(CATEGORY_LABELS[c] ?? c)}: {d.tradeEngagement.data[i]}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                </Group>
              )}
            </Paper>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
