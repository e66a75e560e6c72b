import type { CSSProperties, ReactNode } from 'react';
import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_LABELS, dec, formatOrderTime, type OrderDto } from '@platform/domain';
import { formatPrice, formatProfitLoss, pairLabel } from './figures.ts';
import { PositionCards, type PositionsTableProps } from './PositionCards.tsx';
import { PositionActions } from './PositionActions.tsx';

export type { PositionsTableProps };
import { scrollBoxStyle, stickyActionsStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';

interface Column {
  key: string;
  label: string;
  cell: (o: OrderDto) => ReactNode;
  closedOnly?: boolean;
}

const nowrap = { whiteSpace: 'nowrap' } as const;

/** YYYY-MM-DD h:mm A with the time under the date, so the wide table still fits beside the instrument list. */
function When({ value }: { value: string | null }) {
  const text = formatOrderTime(value);
  const [date, ...time] = text.split(' ');
  if (!time.length) return <>{text}</>;
  return (
    <Text span size="sm" style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
      {date}
      <Text span size="xs" c="dimmed" display="block">
        {' '}
        {time.join(' ')}
      </Text>
    </Text>
  );
}

/** Orders with the spec's fields (§3): OPENED green / CLOSED yellow, P/L to 5 decimals, times YYYY-MM-DD h:mm A. */
/** Figures right-aligned (tabular digits line up), the actions kept in view when the table scrolls sideways. */
const NUMERIC = new Set(['amount', 'open', 'close', 'tp', 'sl', 'pl']);
function cellStyle(key: string, base?: CSSProperties): CSSProperties | undefined {
  if (key === 'actions') return { ...base, ...stickyActionsStyle };
  if (NUMERIC.has(key)) return { ...base, textAlign: 'right' };
  return base;
}

/** The positions table; on a phone (up to 48em) cards instead, so P/L and the actions are never off-screen. */
export function PositionsTable(props: PositionsTableProps) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  return phone ? <PositionCards {...props} /> : <PositionsTableWide {...props} />;
}

function PositionsTableWide(props: PositionsTableProps) {
  const { rows, variant, liveProfitLoss, currency, digitsOf, onClosePosition, onProtect, onPartialClose, closingId } =
    props;
  const { emptyText } = props;
  const { t } = useTranslation();
  const rate = (o: OrderDto, value: string | null) => {
    if (value === null) return '-';
    const digits = digitsOf(o.instrument);
    return digits === undefined ? dec(value).toString() : formatPrice(value, digits);
  };
  const isOpen = (o: OrderDto) => o.close_time === null;

  const status = (o: OrderDto) =>
    isOpen(o) ? (
      <Badge color="green" variant="light" miw="max-content">
        {t('OPENED')}
      </Badge>
    ) : (
      <Group gap={6} wrap="nowrap">
        <Badge color="yellow" variant="light" miw="max-content">
          {t('CLOSED')}
        </Badge>
        {o.partial_of !== null && (
          <Text size="xs" c="dimmed" style={nowrap}>
            {t('Part of #{{id}}', { id: o.partial_of })}
          </Text>
        )}
        {/* Closes the owner did not make (take-profit, stop-loss, stop-out, broker) say why. */}
        {o.close_reason && o.close_reason !== 'manual' && (
          <Text size="xs" c="dimmed" style={nowrap}>
            {t(CLOSE_REASON_LABELS[o.close_reason])}
          </Text>
        )}
      </Group>
    );

  const actions = (o: OrderDto) =>
    isOpen(o) && (
      <PositionActions
        order={o}
        closing={closingId === o.id}
        onProtect={onProtect}
        onPartialClose={onPartialClose}
        onClose={onClosePosition}
      />
    );

  const profitLoss = (o: OrderDto) => {
    const pl = formatProfitLoss(isOpen(o) ? liveProfitLoss.get(o.id) : o.pro_loss, currency);
    return (
      <Text span size="sm" fw={600} c={pl.color} style={nowrap} data-testid={`pl-${o.id}`}>
        {pl.text}
      </Text>
    );
  };

  const allColumns: Column[] = [
    { key: 'time', label: t('Time'), cell: (o) => <When value={o.created_at} /> },
    {
      key: 'instrument',
      label: t('Instrument'),
      cell: (o) => (
        <Text span size="sm" fw={600} style={nowrap}>
          {pairLabel(o.base_symbol, o.quote_symbol)}
        </Text>
      ),
    },
    {
      key: 'type',
      label: t('Type'),
      cell: (o) => (
        <Text span size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'}>
          {o.type === 'buy' ? t('BUY') : t('SELL')}
        </Text>
      ),
    },
    { key: 'amount', label: t('Amount'), cell: (o) => dec(o.trade_amount).toString() },
    { key: 'open', label: t('Open Rate'), cell: (o) => rate(o, o.open_rate) },
    { key: 'close', label: t('Close Rate'), cell: (o) => rate(o, o.close_rate), closedOnly: true },
    { key: 'tp', label: t('Take Profit'), cell: (o) => rate(o, o.profit) },
    {
      key: 'sl',
      label: t('Stop Loss'),
      cell: (o) =>
        o.trailing_distance === null || !isOpen(o) ? (
          rate(o, o.loss)
        ) : (
          <Tooltip label={t('Trailing stop {{distance}}', { distance: rate(o, o.trailing_distance) })}>
            <span style={nowrap} data-testid={`trailing-${o.id}`}>
              {rate(o, o.loss)} ⤴
            </span>
          </Tooltip>
        ),
    },
    { key: 'pl', label: t('P/L'), cell: profitLoss },
    { key: 'status', label: t('Status'), cell: status },
    { key: 'closeTime', label: t('Close Time'), cell: (o) => <When value={o.close_time} />, closedOnly: true },
    { key: 'actions', label: t('Actions'), cell: actions },
  ];
  const columns = allColumns.filter((c) => variant === 'all' || !c.closedOnly);

  return (
    <Table.ScrollContainer minWidth={variant === 'all' ? 1040 : 880} style={scrollBoxStyle}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing={8}
        fz="sm"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} style={cellStyle(c.key, nowrap)}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text ta="center" c="dimmed" py="md" style={stickyMessageStyle}>
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((o) => (
            <Table.Tr key={o.id} data-testid={`position-${o.id}`}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={cellStyle(c.key)}>
                  {c.cell(o)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
