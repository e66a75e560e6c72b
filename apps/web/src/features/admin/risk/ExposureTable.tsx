import { memo, useMemo, useState } from 'react';
import { Progress, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, type ExposureRow } from '@platform/domain';
import { categoryLabel } from './categoryLabel.ts';
import { Sparkline } from './Sparkline.tsx';

type SortKey =
  | 'instrument'
  | 'category'
  | 'long_volume'
  | 'short_volume'
  | 'net_volume'
  | 'client_floating_pl'
  | 'positions';
export type ExposureSort = { key: SortKey; desc: boolean };

const volume = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const price = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: 5 }));
const plColor = (v: number) => (v > 0 ? 'teal' : v < 0 ? 'red' : undefined);

/** Number of times each row rendered: the test reads it to show that unchanged rows are not rendered again. */
export const rowRenders = new Map<string, number>();

/**
 * One instrument's row. Memoised on the row object: the desk's query keeps the previous object for a row whose
 * figures did not change (TanStack Query's structural sharing), so a refresh renders only the rows that moved.
 */
const Row = memo(function Row({ row, currency }: { row: ExposureRow; currency: string }) {
  const { t } = useTranslation();
  rowRenders.set(row.instrument, (rowRenders.get(row.instrument) ?? 0) + 1);
  const usage = row.max_net_volume ? Math.min(100, (Math.abs(row.net_volume) / row.max_net_volume) * 100) : null;
  return (
    <Table.Tr data-instrument={row.instrument}>
      <Table.Td fw={600}>{row.instrument.replace('_', '/')}</Table.Td>
      <Table.Td>{t(categoryLabel(row.category))}</Table.Td>
      <Table.Td ta="right">{volume(row.long_volume)}</Table.Td>
      <Table.Td ta="right">{volume(row.short_volume)}</Table.Td>
      <Table.Td ta="right" data-field="net_volume">
        <Text span size="sm" fw={600} c={plColor(row.net_volume)}>
          {volume(row.net_volume)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{price(row.long_avg_price)}</Table.Td>
      <Table.Td ta="right">{price(row.short_avg_price)}</Table.Td>
      <Table.Td ta="right" data-field="client_floating_pl">
        <Text span size="sm" c={plColor(row.client_floating_pl)}>
          {formatMoney(row.client_floating_pl, currency)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text span size="sm" c={plColor(-row.client_floating_pl)}>
          {formatMoney(-row.client_floating_pl, currency)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{row.positions}</Table.Td>
      <Table.Td>
        <Sparkline values={row.net_history} label={t('Net exposure today')} />
      </Table.Td>
      <Table.Td miw={90}>
        {usage === null ? (
          <Text span size="xs" c="dimmed">
            —
          </Text>
        ) : (
          <Progress
            value={usage}
            color={usage >= 100 ? 'red' : usage >= 80 ? 'orange' : 'blue'}
            aria-label={t('Limit used')}
            title={`${usage.toFixed(1)} %`}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );
});

const COLUMNS: Array<{ key: SortKey | null; label: string; right?: boolean }> = [
  { key: 'instrument', label: 'INSTRUMENT' },
  { key: 'category', label: 'CATEGORY' },
  { key: 'long_volume', label: 'LONG', right: true },
  { key: 'short_volume', label: 'SHORT', right: true },
  { key: 'net_volume', label: 'NET', right: true },
  { key: null, label: 'LONG AVG', right: true },
  { key: null, label: 'SHORT AVG', right: true },
  { key: 'client_floating_pl', label: 'CLIENTS P/L', right: true },
  { key: null, label: 'HOUSE P/L', right: true },
  { key: 'positions', label: 'POSITIONS', right: true },
  { key: null, label: 'TODAY' },
  { key: null, label: 'LIMIT' },
];

function compare(a: ExposureRow, b: ExposureRow, key: SortKey): number {
  if (key === 'instrument' || key === 'category') return a[key].localeCompare(b[key]);
  if (key === 'net_volume') return Math.abs(a.net_volume) - Math.abs(b.net_volume);
  return a[key] - b[key];
}

/** The exposure per instrument, sortable by its headers (largest net first by default). */
export function ExposureTable({ rows, currency }: { rows: readonly ExposureRow[]; currency: string }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<ExposureSort>({ key: 'net_volume', desc: true });
  const sorted = useMemo(() => {
    const list = [...rows].sort((a, b) => compare(a, b, sort.key) || a.instrument.localeCompare(b.instrument));
    return sort.desc ? list.reverse() : list;
  }, [rows, sort]);
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table striped highlightOnHover verticalSpacing={6} aria-label={t('Exposure by instrument')}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th
                key={c.label}
                ta={c.right ? 'right' : undefined}
                aria-sort={c.key === sort.key ? (sort.desc ? 'descending' : 'ascending') : undefined}
              >
                {c.key ? (
                  <UnstyledButton
                    fz="xs"
                    fw={700}
                    onClick={() => setSort((s) => ({ key: c.key as SortKey, desc: s.key === c.key ? !s.desc : true }))}
                  >
                    {t(c.label)}
                    {c.key === sort.key ? (sort.desc ? ' ▼' : ' ▲') : ''}
                  </UnstyledButton>
                ) : (
                  <Text span fz="xs" fw={700}>
                    {t(c.label)}
                  </Text>
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text size="sm" c="dimmed" ta="center">
                  {t('No open positions')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            sorted.map((r) => <Row key={r.instrument} row={r} currency={currency} />)
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
