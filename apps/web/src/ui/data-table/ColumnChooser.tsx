import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from './cells.ts';
import { isChoosable, isColumnShown, type ColumnChoice } from './columnChoice.ts';

/** "Columns": a checkbox per column (the actions column is always shown); the choice is remembered per table. */
export function ColumnChooser<T>({
  columns,
  choice,
  onToggle,
  onReset,
  customised,
}: {
  columns: readonly DataTableColumn<T>[];
  choice: ColumnChoice;
  onToggle: (column: DataTableColumn<T>) => void;
  onReset: () => void;
  customised: boolean;
}) {
  const { t } = useTranslation();
  const choosable = columns.filter(isChoosable);
  const hiddenCount = choosable.filter((c) => !isColumnShown(c, choice)).length;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />} aria-label={t('Columns')}>
          {t('Columns')}
          {hiddenCount > 0 && (
            <Text span size="xs" c="dimmed" ml={6}>
              {t('{{count}} hidden', { count: hiddenCount })}
            </Text>
          )}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label={t('Columns')}>
          {choosable.map((c) => (
            <Checkbox
              key={c.key}
              size="xs"
              label={c.label}
              checked={isColumnShown(c, choice)}
              onChange={() => onToggle(c)}
            />
          ))}
          <Button size="compact-xs" variant="subtle" onClick={onReset} disabled={!customised} mt={4}>
            {t('Default columns')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
