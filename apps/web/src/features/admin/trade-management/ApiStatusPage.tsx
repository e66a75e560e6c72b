import { useState } from 'react';
import { Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { GENERIC_ERROR, type ApiStatusResponse, type Category, type Heartbeat } from '@platform/domain';
import { apiGet, errorMessage } from '../../../api/client.ts';
import { useRealtimeEvent } from '../../../api/realtime.ts';
import { StatusChip } from '../../../ui/data-table/index.ts';

export type { ApiStatusResponse };

export const API_STATUS_QUERY_KEY = ['admin', 'api-status'] as const;

/** The monitored providers, in the spec's order (back-office spec §2 API Status). */
const ROWS: Array<{ api: Heartbeat['api']; label: string }> = [
  { api: 'polygonForex', label: 'Polygon (Forex)' },
  { api: 'polygonCrypto', label: 'Polygon (Crypto)' },
  { api: 'eodStock', label: 'EOD Historical Data (Stock)' },
  { api: 'oandaRest', label: 'Oanda Rest (Others)' },
];

const CATEGORY_LABELS: Record<Category, string> = {
  forex: 'Forex',
  commodity: 'Commodities',
  index: 'Indices',
  stock: 'Stocks',
  crypto: 'Crypto',
};

/**
 * Connected green, Disconnected red; a provider without a key is not monitored (its markets run on the simulated
 * feed); anything else (no heartbeat yet) the warning colour.
 */
function statusOf(beat: Heartbeat | undefined, configured: boolean | undefined): { label: string; color: string } {
  if (configured === false && !beat) return { label: 'Not configured', color: 'gray' };
  if (!beat) return { label: 'N/A', color: 'yellow' };
  return beat.success ? { label: 'Connected', color: 'green' } : { label: 'Disconnected', color: 'red' };
}

/**
 * API Status (/admin/status/api): one row per price provider with its status chip and last message, updated live
 * by the `heartbeat` events the server sends to staff sockets, plus the currency API's quota as used/total.
 */
export function ApiStatusPage() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: API_STATUS_QUERY_KEY,
    queryFn: () => apiGet<ApiStatusResponse>('/admin/api-status'),
    // The simulated feed's heartbeat (its last tick) is read every few seconds; providers' heartbeats arrive live below.
    refetchInterval: 5_000,
  });
  const [live, setLive] = useState<Partial<Record<Heartbeat['api'], Heartbeat>>>({});

  useRealtimeEvent<Heartbeat>('heartbeat', (beat) => {
    if (beat && ROWS.some((r) => r.api === beat.api)) setLive((prev) => ({ ...prev, [beat.api]: beat }));
  });

  const stored = new Map((query.data?.heartbeats ?? []).map((b) => [b.api, b]));
  const currency = query.data?.currency;
  const configured = query.data ? new Set(query.data.configured) : null;
  const simulated = query.data?.simulated;

  return (
    <Paper withBorder p="md" radius="md">
      {query.isError && (
        <Text c="red" size="sm" mb="sm">
          {errorMessage(query.error, t(GENERIC_ERROR))}
        </Text>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('API')}</Table.Th>
              <Table.Th>{t('STATUS')}</Table.Th>
              <Table.Th>{t('MESSAGE')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ROWS.map(({ api, label }) => {
              const beat = live[api] ?? stored.get(api);
              const isConfigured = configured ? configured.has(api) : undefined;
              const status = statusOf(beat, isConfigured);
              return (
                <Table.Tr key={api} data-testid={`api-status-${api}`}>
                  <Table.Td fw={500}>{t(label)}</Table.Td>
                  <Table.Td>
                    <StatusChip label={t(status.label)} color={status.color} />
                  </Table.Td>
                  <Table.Td>
                    {beat
                      ? beat.msg
                      : isConfigured === false
                        ? t('Simulated feed (no provider key)')
                        : t('Checking...')}
                  </Table.Td>
                </Table.Tr>
              );
            })}
            {simulated && simulated.categories.length > 0 && (
              <Table.Tr data-testid="api-status-simulated">
                <Table.Td fw={500}>{t('Simulated feed')}</Table.Td>
                <Table.Td>
                  <StatusChip
                    label={t(simulated.lastTickAt ? 'Running' : 'Waiting')}
                    color={simulated.lastTickAt ? 'green' : 'yellow'}
                  />
                </Table.Td>
                <Table.Td>
                  {simulated.categories.map((c) => t(CATEGORY_LABELS[c])).join(', ')}: {simulated.instruments}{' '}
                  {t('instruments')}
                  {simulated.lastTickAt ? ` · ${t('last tick')} ${dayjs(simulated.lastTickAt).format('HH:mm:ss')}` : ''}
                </Table.Td>
              </Table.Tr>
            )}
            <Table.Tr data-testid="api-status-currency">
              <Table.Td fw={500}>{t('Currency API')}</Table.Td>
              <Table.Td>{t('Remaining Quota')}</Table.Td>
              <Table.Td>
                {currency ? `${currency.used}/${currency.total}` : query.isLoading ? t('Checking...') : '-'}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
