import { memo } from 'react';
import { ActionIcon, Button, Group, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChartCandle, IconStar, IconStarFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { InstrumentDto, Side } from '@platform/domain';
import { formatPrice, pairLabel } from './figures.ts';
import { useQuote, type Move } from './quotes.ts';

export interface InstrumentActions {
  /** Shows the instrument on the chart. */
  onSelect: (instrument: InstrumentDto) => void;
  onTrade: (side: Side, instrument: InstrumentDto) => void;
  onToggleFavorite: (instrument: InstrumentDto) => void;
}

export interface InstrumentListProps extends InstrumentActions {
  instruments: readonly InstrumentDto[];
  favoriteIds: ReadonlySet<number>;
  /** Whether the market of an instrument is open now. */
  isMarketOpen: (instrument: InstrumentDto) => boolean;
  selected: string | null;
  emptyText: string;
}

const moveColor = (move: Move): string | undefined => (move === 'up' ? 'teal' : move === 'down' ? 'red' : undefined);

interface RowProps extends InstrumentActions {
  instrument: InstrumentDto;
  favorite: boolean;
  tradeable: boolean;
  selected: boolean;
}

/** One instrument: watches only its own quote, so a price batch re-renders just the rows that moved. */
const InstrumentRow = memo(function InstrumentRow({
  instrument: i,
  favorite,
  tradeable,
  selected,
  onSelect,
  onTrade,
  onToggleFavorite,
}: RowProps) {
  const { t } = useTranslation();
  const quote = useQuote(i.name);
  const label = pairLabel(i.base, i.quote);
  const price = (side: Side) => (
    <Button
      size="compact-sm"
      px={4}
      fullWidth
      variant="light"
      color={moveColor(side === 'sell' ? (quote?.bidMove ?? null) : (quote?.askMove ?? null)) ?? 'gray'}
      disabled={!tradeable || !quote}
      aria-label={`${side === 'sell' ? t('Sell') : t('Buy')} ${label}`}
      onClick={() => onTrade(side, i)}
      styles={{ label: { fontVariantNumeric: 'tabular-nums' } }}
    >
      {formatPrice(side === 'sell' ? quote?.bid : quote?.ask, i.digits)}
    </Button>
  );
  return (
    <Table.Tr
      bg={selected ? 'var(--mantine-color-blue-light)' : undefined}
      // The instrument on the chart, which the keys trade and Up / Down move from.
      aria-current={selected || undefined}
      data-testid={`instrument-${i.name}`}
    >
      <Table.Td px={4}>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            color="yellow"
            size="sm"
            aria-label={
              favorite
                ? t('Remove {{name}} from favorites', { name: label })
                : t('Add {{name}} to favorites', { name: label })
            }
            aria-pressed={favorite}
            onClick={() => onToggleFavorite(i)}
          >
            {favorite ? <IconStarFilled size={14} /> : <IconStar size={14} />}
          </ActionIcon>
          <UnstyledButton
            onClick={() => onSelect(i)}
            style={{ minWidth: 0, flex: 1 }}
            aria-label={t('Show {{name}} on the chart', { name: label })}
          >
            {/* A symbol never breaks inside ("EUR/U SD"): it stays on one line. */}
            <Text size="sm" fw={600} lh={1.2} style={{ whiteSpace: 'nowrap' }}>
              {label}
            </Text>
            <Text size="xs" c="dimmed" lh={1.2} truncate>
              {i.alias ?? i.name}
            </Text>
          </UnstyledButton>
          {/* Small screens have no room for the dashboard chart beside the list: open a full-page chart. */}
          <ActionIcon
            hiddenFrom="md"
            component={Link}
            to={`/chart/${encodeURIComponent(i.name)}`}
            variant="subtle"
            size="sm"
            aria-label={t('Open the {{name}} chart', { name: label })}
          >
            <IconChartCandle size={16} />
          </ActionIcon>
        </Group>
      </Table.Td>
      <Table.Td px={4}>{price('sell')}</Table.Td>
      <Table.Td px={4}>{price('buy')}</Table.Td>
    </Table.Tr>
  );
});

/** Assets / Sell / Buy list of instruments (Sell shows the bid, Buy the ask), scrolling up to 70% of the viewport. */
export function InstrumentList({
  instruments,
  favoriteIds,
  isMarketOpen,
  selected,
  emptyText,
  ...actions
}: InstrumentListProps) {
  const { t } = useTranslation();
  return (
    <ScrollArea.Autosize mah="70vh" type="auto" offsetScrollbars>
      <Table verticalSpacing={6} highlightOnHover stickyHeader layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th px={4}>{t('Assets')}</Table.Th>
            <Table.Th px={4} ta="center" w={{ base: 86, sm: 96 }}>
              {t('Sell')}
            </Table.Th>
            <Table.Th px={4} ta="center" w={{ base: 86, sm: 96 }}>
              {t('Buy')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {instruments.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Stack align="center" py="md">
                  <Text size="sm" c="dimmed">
                    {emptyText}
                  </Text>
                </Stack>
              </Table.Td>
            </Table.Tr>
          )}
          {instruments.map((i) => (
            <InstrumentRow
              key={i.id}
              instrument={i}
              favorite={favoriteIds.has(i.id)}
              tradeable={i.tradable && isMarketOpen(i)}
              selected={selected === i.name}
              {...actions}
            />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
