import { useEffect } from 'react';
import { ActionIcon, Group } from '@mantine/core';
import { IconLine, IconRulerMeasure, IconSeparatorHorizontal, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DrawingKind } from '@platform/domain';
import { errorMessage } from '../../../api/client.ts';
import { ConfirmPopover } from '../../../ui/data-table/ConfirmPopover.tsx';
import { toastError } from '../../../ui/toast.ts';
import { useChartDrawings } from '../chartApi.ts';
import { deleteDrawings } from './persist.ts';

const TOOLS: { kind: DrawingKind; label: string; icon: typeof IconLine }[] = [
  { kind: 'hline', label: 'Horizontal line', icon: IconSeparatorHorizontal },
  { kind: 'trend', label: 'Trend line', icon: IconLine },
  { kind: 'range', label: 'Measure: price, %, pips and bars', icon: IconRulerMeasure },
];

export interface DrawingToolbarProps {
  symbol: string;
  tool: DrawingKind | null;
  onTool: (tool: DrawingKind | null) => void;
}

/**
 * The drawing tools: choose one, then click the chart (once for a horizontal line, twice for a trend line or a
 * measure). A drawing is selected with a click, moved by its ends or its body, and deleted with Delete or the
 * button that appears; "Delete all" clears the instrument's drawings.
 */
export default function DrawingToolbar({ symbol, tool, onTool }: DrawingToolbarProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const drawings = useChartDrawings(symbol);
  // The tools' code is fetched as the toolbar opens, so the first click on the chart already draws.
  useEffect(() => {
    void import('../studies.ts');
    void import('./index.ts');
  }, []);
  return (
    <Group gap={4} wrap="nowrap" role="toolbar" aria-label={t('Drawing tools')}>
      {TOOLS.map(({ kind, label, icon: Icon }) => (
        <ActionIcon
          key={kind}
          size="sm"
          variant={tool === kind ? 'filled' : 'subtle'}
          aria-label={t(label)}
          title={t(label)}
          aria-pressed={tool === kind}
          onClick={() => onTool(tool === kind ? null : kind)}
        >
          <Icon size={16} />
        </ActionIcon>
      ))}
      <ConfirmPopover
        message={t('Delete all drawings on this instrument?')}
        onConfirm={() =>
          deleteDrawings(
            client,
            symbol,
            drawings.map((d) => d.id),
          ).catch((err) => toastError(errorMessage(err)))
        }
      >
        <ActionIcon
          size="sm"
          variant="subtle"
          color="red"
          disabled={drawings.length === 0}
          aria-label={t('Delete all drawings')}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </ConfirmPopover>
    </Group>
  );
}
