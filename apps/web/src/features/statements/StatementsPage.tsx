import { type ReactNode, useState } from 'react';
import {
  Badge,
  Button,
  Group,
  LoadingOverlay,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CLOSE_REASON_LABELS,
  type CurrentUserResponse,
  dec,
  formatOrderTime,
  pageCount,
  type StatementDto,
} from '@platform/domain';
import { useCurrentUser } from '../../api/hooks.ts';
import { scrollBoxStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';
import { errorMessage } from '../../api/client.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { usePagedList } from '../../ui/data-table/index.ts';
import { useInstruments } from '../trading/api.ts';
import { formatPrice, formatProfitLoss } from '../trading/figures.ts';
import { StatementExportButtons, statementUrl } from './StatementExport.tsx';
import { StopoutReports } from './StopoutReports.tsx';

/** Statements list 15 closed trades a page (spec §9). */
export const STATEMENTS_PAGE_SIZE = 15;

interface Range {
  dateStart: string;
  dateEnd: string;
}

type Wallet = CurrentUserResponse['user']['balances'][number];

/** "USD Demo wallet #11": which wallet a statement covers. */
export const walletName = (w: Wallet, t: (k: string, o?: Record<string, unknown>) => string) =>
  t('{{currency}} {{mode}} wallet #{{id}}', {
    currency: w.currency,
    mode: w.mode === 'real' ? t('Real') : t('Demo'),
    id: w.id,
  });

/** Export of the closed trades of the chosen wallet in the chosen range, as the server's CSV download. */
export const exportUrl = (range: Range & { walletId?: number | null }): string => statementUrl(range);

/**
 * Closed trades of one wallet with a date-range filter and a CSV export (spec §2 "Statements"), beside which the
 * account statement of the same wallet and period downloads as PDF or XLSX. The client picks the wallet among all of
 * theirs, real and demo (the active one first), the page says which one it shows, and the exports cover the same
 * wallet. On a phone each trade is a card, so P/L is never off-screen. The Stop-outs tab lists the stop-out reports.
 */
export function StatementsPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  const wallets = current?.user.balances ?? [];
  const [chosenId, setChosenId] = useState<number | null>(null);
  const walletId = chosenId ?? current?.activeBalance?.id ?? wallets[0]?.id ?? null;
  const wallet = wallets.find((w) => w.id === walletId) ?? null;
  const currency = wallet?.currency ?? '';
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [range, setRange] = useState<Range>({ dateStart: '', dateEnd: '' });
  const [applied, setApplied] = useState<Range>(range);
  const [page, setPage] = useState(1);
  const list = usePagedList<StatementDto>({
    url: '/statements/history',
    page,
    limit: STATEMENTS_PAGE_SIZE,
    filters: { walletId: walletId ?? undefined, dateStart: applied.dateStart, dateEnd: applied.dateEnd },
    enabled: current !== undefined,
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

  const status = (s: StatementDto) => (
    <Badge color="yellow" variant="light" miw="max-content">
      {s.close_reason === 'manual' ? t('CLOSED') : t(CLOSE_REASON_LABELS[s.close_reason])}
    </Badge>
  );
  const messageText = list.isLoading
    ? t('Loading...')
    : list.isError
      ? errorMessage(list.error, t('Something went wrong'))
      : list.rows.length === 0
        ? t('No data found')
        : null;
  // In the table the message is pinned to the scroll box's visible width; among the phone's cards it is plain text.
  const message = (style?: typeof stickyMessageStyle) =>
    messageText === null ? null : (
      <Text ta="center" c={list.isError ? 'red' : 'dimmed'} py="lg" style={style}>
        {messageText}
      </Text>
    );
  const cards = (
    <Stack gap="xs" data-testid="statement-cards">
      {message() ??
        list.rows.map((s) => {
          const pl = formatProfitLoss(s.pro_loss, currency);
          return (
            <Paper key={s.id} withBorder radius="md" p="sm" data-testid={`statement-card-${s.id}`}>
              <Group justify="space-between" wrap="nowrap">
                <Group gap={6} wrap="nowrap">
                  <Text fw={700}>{s.instrument.replace('_', '/')}</Text>
                  <Text size="sm" fw={700} c={s.type === 'buy' ? 'teal' : 'red'}>
                    {s.type === 'buy' ? t('BUY') : t('SELL')}
                  </Text>
                </Group>
                <Text fw={700} c={pl.color} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  {pl.text}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {dec(s.trade_amount).toString()} · {rate(s.instrument, s.open_rate)} →{' '}
                {rate(s.instrument, s.close_rate)}
              </Text>
              <Group justify="space-between" mt={4} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {formatOrderTime(s.close_time)}
                </Text>
                {status(s)}
              </Group>
            </Paper>
          );
        })}
    </Stack>
  );

  let body: ReactNode;
  if (messageText !== null)
    body = (
      <Table.Tr>
        <Table.Td colSpan={headers.length}>{message(stickyMessageStyle)}</Table.Td>
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
          <Table.Td>{status(s)}</Table.Td>
        </Table.Tr>
      );
    });

  const closedTrades = (
    <>
      <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
        <Select
          label={t('Wallet')}
          data={wallets.map((w) => ({
            value: String(w.id),
            label: w.id === current?.activeBalance?.id ? `${walletName(w, t)} (${t('active')})` : walletName(w, t),
          }))}
          value={walletId === null ? null : String(walletId)}
          onChange={(v) => {
            if (!v) return;
            setChosenId(Number(v));
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 260 }}
          data-testid="statement-wallet"
        />
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
        <Group ml="auto">
          <StatementExportButtons range={{ ...range, walletId }} csvLabel={t('Export')} disabled={reversed} />
        </Group>
      </Group>
      <div style={{ position: 'relative' }}>
        <LoadingOverlay visible={list.isFetching && !list.isLoading} loaderProps={{ size: 'sm' }} />
        {phone ? (
          cards
        ) : (
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
        )}
      </div>
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed" data-testid="statements-total">
          {t('Total')}: {list.total}
        </Text>
        <Pagination total={pageCount(list.total, list.perPage)} value={page} onChange={setPage} size="sm" />
      </Group>
    </>
  );

  return (
    <PageCard
      title={t('Statements')}
      description={
        wallet ? t('Closed trades of your {{wallet}}.', { wallet: walletName(wallet, t) }) : t('Your closed trades.')
      }
    >
      <Tabs defaultValue="trades" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="trades">{t('Closed trades')}</Tabs.Tab>
          <Tabs.Tab value="stopouts">{t('Stop-outs')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="trades">{closedTrades}</Tabs.Panel>
        <Tabs.Panel value="stopouts">
          <StopoutReports url="/statements/stopouts" />
        </Tabs.Panel>
      </Tabs>
    </PageCard>
  );
}
