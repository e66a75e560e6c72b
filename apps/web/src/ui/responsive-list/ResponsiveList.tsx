import { useMemo, type CSSProperties, type ReactNode } from 'react';
import { Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { scrollBoxStyle, stickyMessageStyle } from '../data-table/cells.ts';
import { ColumnChooser } from '../data-table/ColumnChooser.tsx';
import { useColumnChoice } from '../data-table/columnChoice.ts';

/** One column of a ResponsiveList's table. `label` is shown as given (translate it at the call site). */
export interface ListColumn<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Figures: right-aligned, so tabular digits line up. */
  numeric?: boolean;
  /** A secondary column of a tight table: hidden until the user shows it with the list's column chooser. */
  hidden?: boolean;
  /** Always shown, left out of the column chooser (what names a row: its ticket, its instrument). */
  always?: boolean;
}

export interface ResponsiveListProps<T> {
  rows: readonly T[];
  columns: readonly ListColumn<T>[];
  /** What one row shows on a phone, inside its card. */
  card: (row: T) => ReactNode;
  rowKey: (row: T) => string | number;
  /** data-testid of a row, the same for its table row and its card. */
  rowTestId: (row: T) => string;
  /** Hover text of a table row. */
  rowTitle?: (row: T) => string;
  /** Shown in place of the rows when there are none. */
  emptyText: string;
  /** data-testid of the phone's card stack. */
  cardsTestId?: string;
  /**
   * Which list the user's column choice is remembered for (localStorage, as the data tables'). A list with one offers
   * the chooser, an icon in the last column's heading.
   */
  tableId?: string;
}

/** Phones (up to 48em) get cards, so nothing a row shows is off-screen. */
export const PHONE_QUERY = '(max-width: 48em)';

const tabular = { fontVariantNumeric: 'tabular-nums' } as const;

function cellStyle<T>(column: ListColumn<T>): CSSProperties | undefined {
  return column.numeric ? { textAlign: 'right' } : undefined;
}

/**
 * A list of the terminal: a table of the given columns on wide screens, one card a row on a phone (the caller draws
 * the card's content). Both show `emptyText` when there are no rows.
 *
 * The table is as narrow as its content allows (small headers that wrap between words, tight spacing), so the
 * terminal's lists fit beside the instrument list at 1366 px. No column is pinned: a box narrower than the table
 * scrolls it sideways whole, and the actions never lie over another column.
 */
export function ResponsiveList<T>(props: ResponsiveListProps<T>) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return phone ? <ListCards {...props} /> : <ListTable {...props} />;
}

function ListTable<T>({ rows, columns, rowKey, rowTestId, rowTitle, emptyText, tableId }: ResponsiveListProps<T>) {
  // The choice treats a column always shown as the data tables treat their actions column.
  const all = useMemo(() => columns.map((c) => (c.always ? { ...c, sticky: true } : c)), [columns]);
  const chosen = useColumnChoice(`terminal:${tableId ?? ''}`, all);
  const withChooser = tableId !== undefined;
  const shown = withChooser ? chosen.visible : all.filter((c) => !c.hidden);
  const chooser = withChooser && (
    <ColumnChooser
      columns={all}
      choice={chosen.choice}
      onToggle={chosen.toggle}
      onReset={chosen.reset}
      customised={chosen.customised}
      compact
    />
  );
  return (
    <Table.ScrollContainer minWidth={0} style={scrollBoxStyle}>
      <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={3} fz="sm" style={tabular}>
        <Table.Thead>
          <Table.Tr>
            {shown.map((c, i) => (
              <Table.Th key={c.key} fz="xs" style={cellStyle(c)}>
                {chooser && i === shown.length - 1 ? (
                  <Group gap={4} wrap="nowrap" justify="space-between">
                    {c.label}
                    {chooser}
                  </Group>
                ) : (
                  c.label
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={shown.length}>
                <Text ta="center" c="dimmed" py="md" style={stickyMessageStyle}>
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId(row)} title={rowTitle?.(row)}>
              {shown.map((c) => (
                <Table.Td key={c.key} style={cellStyle(c)}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ListCards<T>({ rows, card, rowKey, rowTestId, emptyText, cardsTestId }: ResponsiveListProps<T>) {
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="md">
        {emptyText}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid={cardsTestId}>
      {rows.map((row) => (
        <Paper key={rowKey(row)} withBorder radius="md" p="sm" data-testid={rowTestId(row)}>
          {card(row)}
        </Paper>
      ))}
    </Stack>
  );
}

/** A labelled figure of a card: the label small and dimmed, the value under it. */
export function CardFigure({
  label,
  value,
  color,
  bold = true,
  testId,
}: {
  label: string;
  value: ReactNode;
  color?: string;
  /** The value in bold (the default), as figures are. */
  bold?: boolean;
  testId?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={bold ? 600 : undefined} c={color} style={tabular} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
