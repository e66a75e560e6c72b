import { Alert, Badge, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ServerInfoDto } from '@platform/domain';
import { apiGet, errorMessage } from '../../../api/client.ts';

export const SERVER_INFO_QUERY_KEY = ['admin', 'server-info'] as const;
/** How often the figures are read again. */
export const SERVER_INFO_REFRESH_MS = 3_000;

const duration = (s: number) => {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d}d ${h}h ${m}m` : h > 0 ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
};

function Figure({ label, value, percent }: { label: string; value: string; percent?: number }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="lg" ff={percent === undefined ? undefined : 'monospace'} data-testid={`figure-${label}`}>
        {value}
      </Text>
      {percent !== undefined && (
        <Progress mt="xs" value={percent} color={percent > 85 ? 'red' : percent > 60 ? 'yellow' : 'teal'} />
      )}
    </Paper>
  );
}

/**
 * Server Information (/admin/status/server): the spec's CPU and memory figures, then what an operator looks at
 * first (uptime, database, event-loop lag, connected clients, this instance's role), refreshed every few seconds.
 */
export function ServerInfoPage() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: SERVER_INFO_QUERY_KEY,
    queryFn: () => apiGet<ServerInfoDto>('/admin/status/server'),
    refetchInterval: SERVER_INFO_REFRESH_MS,
  });
  if (query.isError) return <Alert color="red">{errorMessage(query.error, t('Something went wrong'))}</Alert>;
  const s = query.data;
  if (!s) return <Text c="dimmed">{t('Loading...')}</Text>;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Figure label={t('CPU Model')} value={s.cpuModel} />
        <Figure label={t('CPU Usage')} value={`${s.cpuUsage}/100%`} percent={s.cpuUsage} />
        <Figure label={t('Logical Cores')} value={String(s.cpuCores)} />
        <Figure label={t('Memory Usage')} value={`${s.usedMemPercentage}/100%`} percent={s.usedMemPercentage} />
        <Figure label={t('Total Memory')} value={`${s.totalMemMb} MB`} />
        <Figure label={t('Server process memory')} value={`${s.processMemMb} MB`} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Figure
          label={t('Uptime')}
          value={`${duration(s.uptimeSeconds)} (${t('machine')} ${duration(s.osUptimeSeconds)})`}
        />
        <Figure
          label={t('Database')}
          value={`${s.database.kind === 'pglite' ? t('Embedded PostgreSQL') : 'PostgreSQL'}${s.database.sizeMb === null ? '' : `, ${s.database.sizeMb} MB`}`}
        />
        <Figure label={t('Event-loop lag (p50 / p99)')} value={`${s.eventLoop.p50Ms} / ${s.eventLoop.p99Ms} ms`} />
        <Figure label={t('Open websocket connections')} value={String(s.websocketClients)} />
        <Figure label={t('Load average (1, 5, 15 min)')} value={s.loadAverage.join(' / ')} />
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('This instance')}
          </Text>
          <Badge mt={6} color={s.instances.leader ? 'teal' : 'gray'}>
            {s.instances.clustered
              ? s.instances.leader
                ? t('Leader of several')
                : t('One of several')
              : t('Single instance')}
          </Badge>
          <Text size="xs" c="dimmed" mt={6}>
            Node {s.nodeVersion}
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
