import type { ReactElement } from 'react';
import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isChoosable, isColumnShown, type ChoosableColumn, type ColumnChoice } from './columnChoice.ts';

export interface ColumnChooserPopoverProps<C extends ChoosableColumn & { label: string }> {
  columns: readonly C[];
  choice: ColumnChoice;
  onToggle: (column: C) => void;
  onReset: () => void;
  customised: boolean;
  /** The "Columns" button (ColumnChooser draws the same one before this popover has loaded). */
  target: ReactElement;
  defaultOpened?: boolean;
}

/** The checkboxes of ColumnChooser: loads the first time its button is reached for. */
export function ColumnChooserPopover<C extends ChoosableColumn & { label: string }>({
  columns,
  choice,
  onToggle,
  onReset,
  customised,
  target,
  defaultOpened = false,
}: ColumnChooserPopoverProps<C>) {
  const { t } = useTranslation();
  const choosable = columns.filter(isChoosable);
  return (
    <Popover position="bottom-end" shadow="md" withinPortal defaultOpened={defaultOpened}>
      <Popover.Target>{target}</Popover.Target>
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
