import { useState } from 'react';
import { Badge, Group, LoadingOverlay, Pagination, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { formatOrderTime, pageCount } from '@platform/domain';
import { scrollBoxStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';
import { historyRow, type HistoryRow } from './historyRows.ts';
import { useOrderHistory } from './pendingApi.ts';

const PAGE_SIZE = 15;
const nowrap = { whiteSpace: 'nowrap' } as const;
const tabular = { fontVariantNumeric: 'tabular-nums' } as const;

export interface HistoryPanelProps {
  currency: string;
  digitsOf: (instrument: string) => number | undefined;
}

/** The History tab: closed deals (partial closes included) and filled, cancelled or expired pending orders, paged. */
export function HistoryPanel({ currency, digitsOf }: HistoryPanelProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useOrderHistory(page, PAGE_SIZE);
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const rows = (history.data?.data ?? []).map((e) => historyRow(e, digitsOf, currency, t));
  const empty = history.isPending ? t('Loading...') : history.isError ? t('Something went wrong') : t('No history yet');
  return (
    <Stack gap="sm" pos="relative" data-testid="history-panel">
      <LoadingOverlay visible={history.isFetching && !history.isPending} loaderProps={{ size: 'sm' }} />
      {phone ? <HistoryCards rows={rows} emptyText={empty} /> : <HistoryTable rows={rows} emptyText={empty} />}
      <Group justify="flex-end">
        <Pagination
          size="sm"
          total={pageCount(history.data?.meta.total, history.data?.meta.per_page ?? PAGE_SIZE)}
          value={page}
          onChange={setPage}
        />
      </Group>
    </Stack>
  );
}

function StatusBadge({ row }: { row: HistoryRow }) {
  return (
    <Badge color={row.status.color} variant="light" miw="max-content">
      {row.status.label}
    </Badge>
  );
}

function HistoryTable({ rows, emptyText }: { rows: HistoryRow[]; emptyText: string }) {
  const { t } = useTranslation();
  const heads = [t('Time'), t('Instrument'), t('Type'), t('Amount'), t('Price'), t('P/L'), t('Status'), t('Details')];
  return (
    <Table.ScrollContainer minWidth={920} style={scrollBoxStyle}>
      <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} fz="sm" style={tabular}>
        <Table.Thead>
          <Table.Tr>
            {heads.map((h) => (
              <Table.Th key={h} style={nowrap}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={heads.length}>
                <Text ta="center" c="dimmed" py="md" style={stickyMessageStyle}>
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((r) => (
            <Table.Tr key={r.key} data-testid={`history-${r.key}`}>
              <Table.Td style={nowrap}>{formatOrderTime(r.time)}</Table.Td>
              <Table.Td style={nowrap} fw={600}>
                {r.instrument}
              </Table.Td>
              <Table.Td style={nowrap} fw={700} c={r.side === 'buy' ? 'teal' : 'red'}>
                {r.type}
              </Table.Td>
              <Table.Td ta="right">{r.amount}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {r.price}
              </Table.Td>
              <Table.Td ta="right" style={nowrap} fw={600} c={r.profitLoss?.color}>
                {r.profitLoss?.text ?? '-'}
              </Table.Td>
              <Table.Td>
                <StatusBadge row={r} />
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {r.detail ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function HistoryCards({ rows, emptyText }: { rows: HistoryRow[]; emptyText: string }) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="md">
        {emptyText}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="history-cards">
      {rows.map((r) => (
        <Paper key={r.key} withBorder radius="md" p="sm" data-testid={`history-${r.key}`}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Group gap={6} wrap="nowrap">
                <Text fw={700}>{r.instrument}</Text>
                <Text size="sm" fw={700} c={r.side === 'buy' ? 'teal' : 'red'}>
                  {r.type}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {formatOrderTime(r.time)}
              </Text>
            </div>
            <StatusBadge row={r} />
          </Group>
          <SimpleGrid cols={3} spacing="xs" mt="xs" style={tabular}>
            <Figure label={t('Amount')} value={r.amount} />
            <Figure label={t('Price')} value={r.price} />
            <Figure label={t('P/L')} value={r.profitLoss?.text ?? '-'} color={r.profitLoss?.color} />
          </SimpleGrid>
          {r.detail && (
            <Text size="xs" c="dimmed" mt={6}>
              {r.detail}
            </Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

function Figure({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} c={color}>
        {value}
      </Text>
    </div>
  );
}
