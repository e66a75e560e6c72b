import type { ReactNode } from 'react';
import { Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RowKey } from './cells.ts';

/**
 * A data table's rows on a phone: one card a row, as the terminal's responsive lists show theirs
 * (ui/responsive-list), with the row's checkbox when the table selects rows.
 */
export function DataCards<T>({
  rows,
  rowKey,
  card,
  selection,
  empty,
  onToggle,
}: {
  rows: readonly T[];
  rowKey: (row: T) => RowKey;
  card: (row: T) => ReactNode;
  selection?: { selected: readonly RowKey[] };
  /** Shown in place of the rows when there are none (loading, an error, or no data). */
  empty: string;
  onToggle: (key: RowKey) => void;
}) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="lg">
        {empty}
      </Text>
    );
  const selected = new Set(selection?.selected ?? []);
  return (
    <Stack gap="xs" data-testid="data-cards">
      {rows.map((row) => {
        const key = rowKey(row);
        return (
          <Paper key={String(key)} withBorder radius="md" p="sm" data-testid={`data-card-${key}`}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              {selection && (
                <Checkbox aria-label={t('Select row')} checked={selected.has(key)} onChange={() => onToggle(key)} />
              )}
              <div style={{ flex: 1, minWidth: 0 }}>{card(row)}</div>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
