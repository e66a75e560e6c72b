import { useState } from 'react';
import { Badge, Group, LoadingOverlay, Pagination, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, formatOrderTime, pageCount, type StopoutReportDto } from '@platform/domain';
import { errorMessage } from '../../api/client.ts';
import { usePagedList } from '../../ui/data-table/index.ts';

/** Stop-out reports are listed 10 to a page: each is a card with its positions. */
export const STOPOUTS_PAGE_SIZE = 10;

function Figure({ label, children, color }: { label: string; children: string; color?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} c={color} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Text>
    </div>
  );
}

function ReportCard({ report }: { report: StopoutReportDto }) {
  const { t } = useTranslation();
  const money = (v: string) => formatMoney(v, report.currency);
  const credit = dec(report.protection_credit);
  return (
    <Paper withBorder radius="md" p="md" data-testid={`stopout-${report.id}`}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Group gap="xs">
          <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" />
          <Text fw={700}>{t('Stop-out')}</Text>
          <Text c="dimmed" size="sm">
            {formatOrderTime(report.created_at)}
          </Text>
        </Group>
        <Badge variant="light" color={report.mode === 'demo' ? 'yellow' : 'blue'}>
          {t('{{currency}} {{mode}} wallet #{{id}}', {
            currency: report.currency,
            mode: report.mode === 'real' ? t('Real') : t('Demo'),
            id: report.wallet_id,
          })}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="sm">
        <Figure label={t('Margin level')} color="red">{`${dec(report.margin_level).toFixed(2)} %`}</Figure>
        <Figure label={t('Equity')}>{money(report.equity)}</Figure>
        <Figure label={t('Balance')}>{money(report.balance)}</Figure>
        <Figure label={t('Negative balance protection')} color={credit.isZero() ? undefined : 'teal'}>
          {money(report.protection_credit)}
        </Figure>
      </SimpleGrid>
      <Table.ScrollContainer minWidth={480}>
        <Table fz="sm" verticalSpacing={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Position')}</Table.Th>
              <Table.Th>{t('Instrument')}</Table.Th>
              <Table.Th>{t('Type')}</Table.Th>
              <Table.Th ta="right">{t('Amount')}</Table.Th>
              <Table.Th ta="right">{t('Close Rate')}</Table.Th>
              <Table.Th ta="right">{t('P/L')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.positions.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>#{p.id}</Table.Td>
                <Table.Td fw={600}>{p.instrument.replace('_', '/')}</Table.Td>
                <Table.Td c={p.side === 'buy' ? 'teal' : 'red'} fw={700}>
                  {p.side === 'buy' ? t('BUY') : t('SELL')}
                </Table.Td>
                <Table.Td ta="right">{dec(p.amount).toString()}</Table.Td>
                <Table.Td ta="right">{dec(p.price).toString()}</Table.Td>
                <Table.Td ta="right" c={dec(p.pl).isNegative() ? 'red' : 'teal'}>
                  {money(p.pl)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/**
 * Stop-out reports, newest first: when each stop-out was decided, the margin level, equity and balance then, each
 * position it closed with its price and P/L, and the negative-balance-protection credit. `url` is the client's
 * /statements/stopouts or staff's /admin/customers/{id}/stopouts.
 */
export function StopoutReports({ url }: { url: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = usePagedList<StopoutReportDto>({ url, page, limit: STOPOUTS_PAGE_SIZE });
  const message = list.isLoading
    ? t('Loading...')
    : list.isError
      ? errorMessage(list.error, t('Something went wrong'))
      : list.rows.length === 0
        ? t('No stop-outs.')
        : null;
  return (
    <div style={{ position: 'relative' }} data-testid="stopout-reports">
      <LoadingOverlay visible={list.isFetching && !list.isLoading} loaderProps={{ size: 'sm' }} />
      <Stack gap="sm">
        {message !== null ? (
          <Text ta="center" c={list.isError ? 'red' : 'dimmed'} py="lg">
            {message}
          </Text>
        ) : (
          list.rows.map((r) => <ReportCard key={r.id} report={r} />)
        )}
      </Stack>
      {list.total > STOPOUTS_PAGE_SIZE && (
        <Group justify="flex-end" mt="md">
          <Pagination total={pageCount(list.total, list.perPage)} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </div>
  );
}
