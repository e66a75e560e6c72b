import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type {
  PartnerClientDto,
  PartnerCommissionDto,
  PartnerSubpartnerDto,
  PartnerSummaryResponse,
} from '@platform/domain';
import { apiGet, apiUrl, errorMessage } from '../../api/client.ts';
import { ResponsiveList } from '../../ui/responsive-list/index.ts';
import { InviteSubpartner } from './InviteSubpartner.tsx';
import { cardOf, clientColumns, commissionColumns, money, subpartnerColumns } from './partnerColumns.tsx';

type Page<T> = { data: T[]; meta: { total: number } };
type Clients = Page<PartnerClientDto>;
type Commissions = Page<PartnerCommissionDto>;
type Subpartners = { data: PartnerSubpartnerDto[] };

/** The period every tab reads: whole UTC days, the last 30 by default. */
function usePeriod() {
  const [dateEnd, setEnd] = useState(dayjs().format('YYYY-MM-DD'));
  const [dateStart, setStart] = useState(dayjs().subtract(29, 'day').format('YYYY-MM-DD'));
  return { dateStart, dateEnd, setStart, setEnd };
}

function PeriodInputs({ period }: { period: ReturnType<typeof usePeriod> }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end">
      <TextInput
        type="date"
        label={t('From')}
        value={period.dateStart}
        onChange={(e) => period.setStart(e.currentTarget.value)}
      />
      <TextInput
        type="date"
        label={t('To')}
        value={period.dateEnd}
        onChange={(e) => period.setEnd(e.currentTarget.value)}
      />
    </Group>
  );
}

function Dashboard({ period }: { period: ReturnType<typeof usePeriod> }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['partner', 'summary', period.dateStart, period.dateEnd],
    queryFn: () =>
      apiGet<PartnerSummaryResponse>('/affiliate/partner/summary', {
        dateStart: period.dateStart,
        dateEnd: period.dateEnd,
      }),
    placeholderData: keepPreviousData,
  });
  if (q.error) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const s = q.data;
  const link = s?.promoCode ? `${window.location.origin}/signup?promo=${encodeURIComponent(s.promoCode)}` : null;
  const byDay = new Map<string, number>();
  for (const d of s?.byDay ?? []) byDay.set(d.day, (byDay.get(d.day) ?? 0) + Number(d.amount));
  const chart = [...byDay].map(([day, amount]) => ({ day, amount: Math.round(amount * 100) / 100 }));
  const tile = (label: string, value: string | number) => (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={`partner-${label}`}>
        {value}
      </Text>
    </Paper>
  );
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {tile(t('Clients'), s?.clients ?? '–')}
        {tile(t('Active traders'), s?.activeTraders ?? '–')}
        {tile(t('Volume (lots)'), s ? Number(s.lots).toFixed(2) : '–')}
        {tile(t('Commission'), s ? money(s.commission) : '–')}
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Title order={5} mb="sm">
          {t('Commission by day')}
        </Title>
        {chart.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('No commission in this period')}
          </Text>
        ) : (
          <BarChart h={240} data={chart} dataKey="day" series={[{ name: 'amount', label: t('Commission') }]} />
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={5} mb="sm">
          {t('Your link and code')}
        </Title>
        {s?.promoCode ? (
          <Stack gap="xs">
            <Text size="sm">
              {t('Promo code')}: <b>{s.promoCode}</b>
            </Text>
            <Text size="sm">
              {t('Sign-up link')}: <Anchor href={link ?? '#'}>{link}</Anchor>
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('Generate your promo code on the Promo Code page to get your link.')}{' '}
            <Anchor href="/admin/promo-code">{t('Promo Code')}</Anchor>
          </Text>
        )}
        <Group mt="sm" gap="xs">
          {s?.plan && <Badge variant="light">{`${t('Plan')}: ${s.plan.name} (${s.plan.currency})`}</Badge>}
          {(s?.wallets ?? []).map((w) => (
            <Badge
              key={w.id}
              variant="outline"
            >{`${t('Commission wallet')} #${w.id}: ${Number(w.balance).toFixed(2)} ${w.currency}`}</Badge>
          ))}
        </Group>
      </Paper>
    </Stack>
  );
}

function ClientsTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['partner', 'clients', page],
    queryFn: () => apiGet<Clients>('/affiliate/partner/clients', { page, limit: 50 }),
    placeholderData: keepPreviousData,
  });
  if (q.error) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const rows = q.data?.data ?? [];
  const columns = clientColumns(t);
  return (
    <Stack>
      <ResponsiveList
        rows={rows}
        columns={columns}
        card={cardOf(columns)}
        rowKey={(c) => c.id}
        rowTestId={(c) => `partner-client-${c.id}`}
        emptyText={t('No clients yet')}
      />
      <Pager page={page} total={q.data?.meta.total ?? 0} limit={50} onPage={setPage} />
    </Stack>
  );
}

function Pager({
  page,
  total,
  limit,
  onPage,
}: {
  page: number;
  total: number;
  limit: number;
  onPage: (p: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">{`${total} ${t('in all')}`}</Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('Previous')}
        </Button>
        <Button size="xs" variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('Next')}
        </Button>
      </Group>
    </Group>
  );
}

function SubpartnersTab() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['partner', 'subpartners'],
    queryFn: () => apiGet<Subpartners>('/affiliate/partner/subpartners'),
  });
  if (q.error) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const rows = q.data?.data ?? [];
  const columns = subpartnerColumns(t);
  return (
    <Stack>
      <InviteSubpartner />
      <ResponsiveList
        rows={rows}
        columns={columns}
        card={cardOf(columns)}
        rowKey={(r) => r.userId}
        rowTestId={(r) => `subpartner-${r.userId}`}
        emptyText={t('No sub-partners yet')}
      />
    </Stack>
  );
}

function StatementTab({ period }: { period: ReturnType<typeof usePeriod> }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = { dateStart: period.dateStart, dateEnd: period.dateEnd };
  const q = useQuery({
    queryKey: ['partner', 'commissions', period.dateStart, period.dateEnd, page],
    queryFn: () => apiGet<Commissions>('/affiliate/partner/commissions', { ...query, page, limit: 50 }),
    placeholderData: keepPreviousData,
  });
  if (q.error) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const rows = q.data?.data ?? [];
  const columns = commissionColumns(t);
  return (
    <Stack>
      <Group gap="xs">
        <Button
          component="a"
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          href={apiUrl('/affiliate/partner/commissions', { ...query, format: 'csv' })}
        >
          CSV
        </Button>
        <Button
          component="a"
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          href={apiUrl('/affiliate/partner/commissions', { ...query, format: 'xlsx' })}
        >
          XLSX
        </Button>
      </Group>
      <ResponsiveList
        rows={rows}
        columns={columns}
        card={cardOf(columns)}
        rowKey={(c) => c.id}
        rowTestId={(c) => `commission-${c.id}`}
        emptyText={t('No commission in this period')}
      />
      <Pager page={page} total={q.data?.meta.total ?? 0} limit={50} onPage={setPage} />
    </Stack>
  );
}

/**
 * The partner portal (/affiliate/partner, role 4): dashboard (clients, active traders, volume, commission by day,
 * the partner's link and code), clients, sub-partners and the commission statement with its exports.
 */
export function PartnerPortalPage() {
  const { t } = useTranslation();
  const period = usePeriod();
  return (
    <Stack>
      <Group justify="flex-end" align="flex-end">
        <PeriodInputs period={period} />
      </Group>
      <Tabs defaultValue="dashboard" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="dashboard">{t('Dashboard')}</Tabs.Tab>
          <Tabs.Tab value="clients">{t('Clients')}</Tabs.Tab>
          <Tabs.Tab value="subpartners">{t('Sub-partners')}</Tabs.Tab>
          <Tabs.Tab value="statement">{t('Commission statement')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="dashboard">
          <Dashboard period={period} />
        </Tabs.Panel>
        <Tabs.Panel value="clients">
          <ClientsTab />
        </Tabs.Panel>
        <Tabs.Panel value="subpartners">
          <SubpartnersTab />
        </Tabs.Panel>
        <Tabs.Panel value="statement">
          <StatementTab period={period} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
