import { useState } from 'react';
import { Anchor, Card, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, type TopClientsResponse } from '@platform/domain';
import { apiGet } from '../../../api/client.ts';

type By = 'pl' | 'volume' | 'exposure';
export const TOP_CLIENTS_REFRESH_MS = 2000;

/** The ten clients with the largest floating P/L, volume or exposure in the desk's mode, refreshed every 2 s. */
export function TopClients({ mode }: { mode: string }) {
  const { t } = useTranslation();
  const [by, setBy] = useState<By>('pl');
  const q = useQuery({
    queryKey: ['admin', 'risk', 'top-clients', by, mode],
    queryFn: () => apiGet<TopClientsResponse>('/admin/risk/top-clients', { by, mode, limit: 10 }),
    refetchInterval: TOP_CLIENTS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const currency = q.data?.currency ?? 'USD';
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" mb="xs">
        <Title order={5}>{t('Top clients')}</Title>
        <SegmentedControl
          size="xs"
          aria-label={t('Top clients by')}
          value={by}
          onChange={(v) => setBy(v as By)}
          data={[
            { value: 'pl', label: t('Floating P/L') },
            { value: 'volume', label: t('Volume') },
            { value: 'exposure', label: t('Exposure') },
          ]}
        />
      </Group>
      <Table verticalSpacing={4} aria-label={t('Top clients')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('CUSTOMER')}</Table.Th>
            <Table.Th ta="right">{t('Floating P/L')}</Table.Th>
            <Table.Th ta="right">{t('Volume')}</Table.Th>
            <Table.Th ta="right">{t('Exposure')}</Table.Th>
            <Table.Th ta="right">{t('POSITIONS')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(q.data?.data ?? []).map((c) => (
            <Table.Tr key={c.user_id}>
              <Table.Td>
                <Anchor component={Link} to={`/admin/customers/edit/${c.user_id}`} size="sm" title={c.email}>
                  {c.name || c.email}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">
                <Text span size="sm" c={c.floating_pl > 0 ? 'teal' : c.floating_pl < 0 ? 'red' : undefined}>
                  {formatMoney(c.floating_pl, currency)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{formatMoney(c.volume, currency, 0)}</Table.Td>
              <Table.Td ta="right">{formatMoney(c.exposure, currency, 0)}</Table.Td>
              <Table.Td ta="right">{c.positions}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {q.data && q.data.data.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" mt="xs">
          {t('No open positions')}
        </Text>
      ) : null}
    </Card>
  );
}
