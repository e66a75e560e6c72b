import { ActionIcon, Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isChoosable, isColumnShown, type ChoosableColumn, type ColumnChoice } from './columnChoice.ts';

/**
 * "Columns": a checkbox per column (the actions column is always shown); the choice is remembered per table.
 * `compact` is an icon alone (a tight table's header), saying how many columns are hidden on hover.
 */
export function ColumnChooser<C extends ChoosableColumn & { label: string }>({
  columns,
  choice,
  onToggle,
  onReset,
  customised,
  compact = false,
}: {
  columns: readonly C[];
  choice: ColumnChoice;
  onToggle: (column: C) => void;
  onReset: () => void;
  customised: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const choosable = columns.filter(isChoosable);
  const hiddenCount = choosable.filter((c) => !isColumnShown(c, choice)).length;
  const hidden = hiddenCount > 0 ? t('{{count}} hidden', { count: hiddenCount }) : null;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        {compact ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t('Columns')}
            title={hidden ? `${t('Columns')} · ${hidden}` : t('Columns')}
          >
            <IconColumns size={14} />
          </ActionIcon>
        ) : (
          <Button variant="default" leftSection={<IconColumns size={16} />} aria-label={t('Columns')}>
            {t('Columns')}
            {hidden && (
              <Text span size="xs" c="dimmed" ml={6}>
                {hidden}
              </Text>
            )}
          </Button>
        )}
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
