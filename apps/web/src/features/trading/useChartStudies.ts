import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useMantineTheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { IChartApi, ISeriesApi } from 'lightweight-charts';
import type { Candle, ChartInterval, DrawingDto, DrawingKind, IndicatorConfig } from '@platform/domain';
import type { LegendLine } from './ChartLegend.tsx';
import type { ChartStudies as Controller, StudiesView } from './studies.ts';

export interface ChartStudiesInput {
  chart: RefObject<IChartApi | null>;
  series: RefObject<ISeriesApi<'Candlestick'> | null>;
  /** Every bar on the chart, the live one last. */
  bars: RefObject<Candle[]>;
  /** Changes whenever the chart is created afresh. */
  chartVersion: number;
  symbol: string;
  digits: number;
  interval: ChartInterval;
  quoteCurrency: string;
  indicators: readonly IndicatorConfig[];
  drawings: readonly DrawingDto[];
  tool: DrawingKind | null;
  onToolDone: () => void;
  /** Loads the studies' code (the page's import(), see ChartLoaders); without it the chart shows none. */
  load?: () => Promise<typeof import('./studies.ts')>;
}

const NOTHING: StudiesView = { indicators: '', drawings: '', tool: '', selected: null };

/**
 * The trader's indicators and drawings on a price chart. All their code is loaded the first time there is an
 * indicator or a drawing to show or a tool in hand (studies.ts, through the page's `load`), so the dashboard's first
 * load carries only this.
 * Call it before the effect that creates the chart, so its layers go before the chart does.
 */
export function useChartStudies(input: ChartStudiesInput) {
  const theme = useMantineTheme();
  const { t } = useTranslation();
  const client = useQueryClient();
  const { load } = input;
  const wanted =
    load !== undefined && (input.indicators.length > 0 || input.drawings.length > 0 || input.tool !== null);
  const [mod, setMod] = useState<typeof import('./studies.ts') | null>(null);
  const [view, setView] = useState<StudiesView>(NOTHING);
  const controller = useRef<Controller | null>(null);
  const { chart, series, bars, chartVersion } = input;

  useEffect(() => {
    if (!wanted || mod || !load) return;
    let live = true;
    load().then(
      (m) => live && setMod(m),
      (err) => console.warn('Could not load the chart tools', err),
    );
    return () => {
      live = false;
    };
  }, [wanted, mod, load]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a chart created afresh (chartVersion) gets new layers
  useEffect(() => {
    if (!mod || !chart.current || !series.current) return;
    const c = new mod.ChartStudies(chart.current, series.current, setView);
    controller.current = c;
    c.setBars(bars.current ?? [], true);
    return () => {
      c.dispose();
      controller.current = null;
      setView(NOTHING);
    };
  }, [mod, chartVersion]);

  // Every render: the controller applies only what changed.
  useEffect(() => {
    controller.current?.update({ ...input, quoteCurrency: input.quoteCurrency, theme, t, client });
  });

  const barsChanged = useCallback((all: boolean) => controller.current?.setBars(bars.current ?? [], all), [bars]);
  const legendAt = (index: number): LegendLine[] => controller.current?.legendAt(index) ?? [];
  const deleteSelected = () => controller.current?.deleteSelected();
  return { ...view, barsChanged, legendAt, deleteSelected };
}
