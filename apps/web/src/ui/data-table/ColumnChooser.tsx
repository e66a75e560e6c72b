import { lazy } from 'react';
import { ActionIcon, Button, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MenuOnUse } from '../shell/MenuOnUse.tsx';
import { isChoosable, isColumnShown, type ChoosableColumn, type ColumnChoice } from './columnChoice.ts';

const loadPopover = () => import('./ColumnChooserPopover.tsx');
const ColumnChooserPopover = lazy(() => loadPopover().then((m) => ({ default: m.ColumnChooserPopover })));

/**
 * "Columns": a checkbox per column (the actions column is always shown); the choice is remembered per table.
 * `compact` is an icon alone (a tight table's header), saying how many columns are hidden on hover. The checkboxes'
 * popover loads when the button is first reached for (see MenuOnUse).
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
  const hiddenCount = columns.filter(isChoosable).filter((c) => !isColumnShown(c, choice)).length;
  const hidden = hiddenCount > 0 ? t('{{count}} hidden', { count: hiddenCount }) : null;
  return (
    <MenuOnUse
      load={loadPopover}
      target={(on) =>
        compact ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t('Columns')}
            title={hidden ? `${t('Columns')} · ${hidden}` : t('Columns')}
            {...on}
          >
            <IconColumns size={14} />
          </ActionIcon>
        ) : (
          <Button variant="default" leftSection={<IconColumns size={16} />} aria-label={t('Columns')} {...on}>
            {t('Columns')}
            {hidden && (
              <Text span size="xs" c="dimmed" ml={6}>
                {hidden}
              </Text>
            )}
          </Button>
        )
      }
      menu={(target) => (
        <ColumnChooserPopover
          columns={columns}
          choice={choice}
          // The lazy component loses the column type; the columns passed in are the ones handed back.
          onToggle={(c) => onToggle(c as C)}
          onReset={onReset}
          customised={customised}
          target={target}
          defaultOpened
        />
      )}
    />
  );
}
