import { type ComponentType, type LazyExoticComponent, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DrawingKind } from '@platform/domain';

/**
 * The chart tools' code, loaded on first use. The page that shows the chart makes these (`lazy(() => import(...))`):
 * an import() in the chart's own chunk would add the list of chunks it needs to every first load of the dashboard.
 */
export interface ChartLoaders {
  dialog: LazyExoticComponent<ComponentType<{ opened: boolean; onClose: () => void }>>;
  toolbar: LazyExoticComponent<ComponentType<Omit<ChartToolsProps, 'loaders'>>>;
  studies: () => Promise<typeof import('./studies.ts')>;
}

export interface ChartToolsProps {
  symbol: string;
  tool: DrawingKind | null;
  onTool: (tool: DrawingKind | null) => void;
  loaders: ChartLoaders;
}

/** The chart's Indicators and Draw buttons, with the indicator dialog and the drawing tools they open. */
export function ChartTools({ symbol, tool, onTool, loaders }: ChartToolsProps) {
  const { dialog: IndicatorDialog, toolbar: DrawingToolbar } = loaders;
  const { t } = useTranslation();
  const [dialogOpen, setDialog] = useState<boolean | null>(null);
  const [drawing, setDrawing] = useState(false);
  return (
    <>
      <Button size="compact-xs" variant={dialogOpen ? 'light' : 'subtle'} onClick={() => setDialog(true)}>
        {t('Indicators')}
      </Button>
      <Button
        size="compact-xs"
        variant={drawing ? 'light' : 'subtle'}
        aria-pressed={drawing}
        onClick={() => {
          setDrawing(!drawing);
          if (drawing) onTool(null);
        }}
      >
        {t('Draw')}
      </Button>
      <Suspense fallback={null}>
        {drawing && <DrawingToolbar symbol={symbol} tool={tool} onTool={onTool} />}
        {dialogOpen !== null && <IndicatorDialog opened={dialogOpen} onClose={() => setDialog(false)} />}
      </Suspense>
    </>
  );
}
