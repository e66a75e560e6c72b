import { useState } from 'react';
import { Badge, Button, Group, LoadingOverlay, Pagination, Table, Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconDownload, IconFilter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, dec, formatOrderTime, pageCount, type StatementDto } from '@platform/domain';
import { useCurrentUser } from '../../api/hooks.ts';
import { scrollBoxStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';
import { errorMessage } from '../../api/client.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { usePagedList } from '../../ui/data-table/index.ts';
import { useInstruments } from '../trading/api.ts';
import { formatPrice, formatProfitLoss } from '../trading/figures.ts';

/** Statements list 15 closed trades a page (spec §9). */
export const STATEMENTS_PAGE_SIZE = 15;

interface Range {
  dateStart: string;
  dateEnd: string;
}

/** Export of the closed trades in the chosen range, as the server's CSV download. */
export function exportUrl({ dateStart, dateEnd }: Range): string {
  const params = new URLSearchParams();
  if (dateStart) params.set('dateStart', dateStart);
  if (dateEnd) params.set('dateEnd', dateEnd);
  const qs = params.toString();
  return `/api/statements/export${qs ? `?${qs}` : ''}`;
}

/** Closed trades of the active wallet with a date-range filter and a CSV export (spec §2 "Statements"). */
export function StatementsPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  const currency = current?.activeBalance?.currency ?? '';
  const [range, setRange] = useState<Range>({ dateStart: '', dateEnd: '' });
  const [applied, setApplied] = useState<Range>(range);
  const [page, setPage] = useState(1);
  const list = usePagedList<StatementDto>({
    url: '/statements/history',
    page,
    limit: STATEMENTS_PAGE_SIZE,
    filters: { dateStart: applied.dateStart, dateEnd: applied.dateEnd },
  });
  // Rates show with their instrument's digits, as on the dashboard.
  const { data: instruments } = useInstruments();
  const rate = (name: string, value: string) => {
    const digits = instruments?.find((i) => i.name === name)?.digits;
    return digits === undefined ? dec(value).toString() : formatPrice(value, digits);
  };
  const reversed = Boolean(range.dateStart && range.dateEnd && range.dateStart > range.dateEnd);
  const filter = () => {
    setApplied(range);
    setPage(1);
  };
  const headers = [
    t('Open Time'),
    t('Close Time'),
    t('Instrument'),
    t('Type'),
    t('Amount'),
    t('Open Rate'),
    t('Close Rate'),
    t('P/L'),
    t('Status'),
  ];

  let body;
  if (list.isLoading || list.isError || list.rows.length === 0)
    body = (
      <Table.Tr>
        <Table.Td colSpan={headers.length}>
          <Text ta="center" c={list.isError ? 'red' : 'dimmed'} py="lg" style={stickyMessageStyle}>
            {list.isLoading
              ? t('Loading...')
              : list.isError
                ? errorMessage(list.error, t('Something went wrong'))
                : t('No data found')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  else
    body = list.rows.map((s) => {
      const pl = formatProfitLoss(s.pro_loss, currency);
      return (
        <Table.Tr key={s.id}>
          <Table.Td>{formatOrderTime(s.created_at)}</Table.Td>
          <Table.Td>{formatOrderTime(s.close_time)}</Table.Td>
          <Table.Td fw={600}>{s.instrument.replace('_', '/')}</Table.Td>
          <Table.Td c={s.type === 'buy' ? 'teal' : 'red'} fw={700}>
            {s.type === 'buy' ? t('BUY') : t('SELL')}
          </Table.Td>
          <Table.Td>{dec(s.trade_amount).toString()}</Table.Td>
          <Table.Td>{rate(s.instrument, s.open_rate)}</Table.Td>
          <Table.Td>{rate(s.instrument, s.close_rate)}</Table.Td>
          <Table.Td c={pl.color} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {pl.text}
          </Table.Td>
          <Table.Td>
            <Badge color="yellow" variant="light" miw="max-content">
              {s.close_reason === 'manual' ? t('CLOSED') : t(CLOSE_REASON_LABELS[s.close_reason])}
            </Badge>
          </Table.Td>
        </Table.Tr>
      );
    });

  return (
    <PageCard title={t('Statements')} description={t('Your closed trades.')}>
      <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
        <DateInput
          label={t('From')}
          valueFormat="YYYY-MM-DD"
          placeholder="YYYY-MM-DD"
          clearable
          value={range.dateStart || null}
          onChange={(v) => setRange((r) => ({ ...r, dateStart: v ?? '' }))}
          w={160}
        />
        <DateInput
          label={t('To')}
          valueFormat="YYYY-MM-DD"
          placeholder="YYYY-MM-DD"
          clearable
          value={range.dateEnd || null}
          onChange={(v) => setRange((r) => ({ ...r, dateEnd: v ?? '' }))}
          error={reversed ? t('The start date must not be after the end date.') : undefined}
          w={160}
        />
        <Button leftSection={<IconFilter size={16} />} onClick={filter} disabled={reversed}>
          {t('Filter')}
        </Button>
        <Button
          component="a"
          href={exportUrl(range)}
          download
          variant="default"
          leftSection={<IconDownload size={16} />}
          ml="auto"
        >
          {t('Export')}
        </Button>
      </Group>
      <div style={{ position: 'relative' }}>
        <LoadingOverlay visible={list.isFetching && !list.isLoading} loaderProps={{ size: 'sm' }} />
        <Table.ScrollContainer minWidth={760} style={scrollBoxStyle}>
          <Table striped highlightOnHover verticalSpacing="sm" fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Table.Thead>
              <Table.Tr>
                {headers.map((h) => (
                  <Table.Th key={h} style={{ whiteSpace: 'nowrap' }}>
                    {h}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{body}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </div>
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed" data-testid="statements-total">
          {t('Total')}: {list.total}
        </Text>
        <Pagination total={pageCount(list.total, list.perPage)} value={page} onChange={setPage} size="sm" />
      </Group>
    </PageCard>
  );
}
