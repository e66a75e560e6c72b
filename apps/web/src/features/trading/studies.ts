import type { MantineTheme } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { IChartApi, ISeriesApi } from 'lightweight-charts';
import {
  CHART_INTERVAL_SPECS,
  type Candle,
  type ChartInterval,
  type DrawingDto,
  type DrawingKind,
  type IndicatorConfig,
  pipSize,
} from '@platform/domain';
import { errorMessage } from '../../api/client.ts';
import { toastError } from '../../ui/toast.ts';
import type { LegendLine } from './ChartLegend.tsx';
import type { DrawingLayerOptions } from './drawings/layer.ts';

type IndicatorModule = typeof import('./indicators/layer.ts');
type DrawingModule = typeof import('./drawings/index.ts');

export interface StudiesInput {
  symbol: string;
  digits: number;
  interval: ChartInterval;
  quoteCurrency: string;
  indicators: readonly IndicatorConfig[];
  drawings: readonly DrawingDto[];
  tool: DrawingKind | null;
  onToolDone: () => void;
  theme: MantineTheme;
  t: TFunction;
  client: QueryClient;
}

/** What the page shows about the studies: what is drawn (for its tests) and the selected drawing. */
export interface StudiesView {
  indicators: string;
  drawings: string;
  /** The tool the drawing layer holds ('' until it is loaded or with none). */
  tool: string;
  selected: number | null;
}

const failed = (err: unknown) => toastError(errorMessage(err));
const broken = (err: unknown) => console.error('Chart tools failed', err);

/**
 * The trader's indicators and drawings on one chart. This module, the indicator formulas and series, and the
 * drawing tools are each loaded on first use (this one with the first indicator, drawing or tool; the indicator
 * code with the first indicator; the drawing code with the first drawing or tool), so the dashboard's first load
 * carries none of them.
 */
export class ChartStudies {
  private indicatorLayer: InstanceType<IndicatorModule['IndicatorLayer']> | null = null;
  private drawingLayer: InstanceType<DrawingModule['DrawingLayer']> | null = null;
  private drawingModule: DrawingModule | null = null;
  private loading = { indicators: false, drawings: false };
  private input: StudiesInput | null = null;
  private bars: readonly Candle[] = [];
  private applied: {
    indicators?: readonly IndicatorConfig[];
    digits?: number;
    drawings?: readonly DrawingDto[];
    tool?: DrawingKind | null;
    options?: string;
  } = {};
  private view: StudiesView = { indicators: '', drawings: '', tool: '', selected: null };
  private disposed = false;

  constructor(
    private readonly chart: IChartApi,
    private readonly series: ISeriesApi<'Candlestick'>,
    private readonly report: (view: StudiesView) => void,
  ) {}

  /** The page's latest state: cheap to call on every render (only what changed is applied). */
  update(input: StudiesInput): void {
    this.input = input;
    if (input.indicators.length > 0 && !this.indicatorLayer) this.loadIndicators().catch(broken);
    if ((input.drawings.length > 0 || input.tool !== null) && !this.drawingLayer) this.loadDrawings().catch(broken);
    this.applyIndicators(false);
    this.applyDrawings();
  }

  /** New history (`all`) or a tick that moved or opened the last bar. */
  setBars(bars: readonly Candle[], all: boolean): void {
    this.bars = bars;
    if (all) this.applyIndicators(true);
    else this.indicatorLayer?.live(bars);
    this.drawingLayer?.setBars(bars);
  }

  legendAt(index: number): LegendLine[] {
    return this.indicatorLayer?.valuesAt(index) ?? [];
  }

  deleteSelected(): void {
    const { selected } = this.view;
    const input = this.input;
    if (selected === null || !this.drawingModule || !input) return;
    this.drawingModule.deleteDrawings(input.client, input.symbol, [selected]).catch(failed);
  }

  dispose(): void {
    this.disposed = true;
    // The chart may have gone first (it is removed with the page).
    try {
      this.indicatorLayer?.dispose();
      this.drawingLayer?.dispose();
    } catch {}
    this.indicatorLayer = null;
    this.drawingLayer = null;
  }

  private show(change: Partial<StudiesView>): void {
    const next = { ...this.view, ...change };
    if ((Object.keys(next) as (keyof StudiesView)[]).every((k) => next[k] === this.view[k])) return;
    this.view = next;
    this.report(next);
  }

  private async loadIndicators(): Promise<void> {
    if (this.loading.indicators) return;
    this.loading.indicators = true;
    const mod = await import('./indicators/layer.ts').catch(() => null);
    if (!mod || this.disposed || !this.input) return;
    const c = this.input.theme.colors;
    this.indicatorLayer = new mod.IndicatorLayer(this.chart, {
      palette: [c.yellow[5], c.cyan[4], c.grape[4], c.orange[5], c.lime[5], c.pink[4], c.indigo[3]],
      second: c.red[4],
      up: c.teal[7],
      down: c.red[7],
      level: c.dark[3],
    });
    this.applyIndicators(true);
  }

  private applyIndicators(force: boolean): void {
    const layer = this.indicatorLayer;
    const input = this.input;
    if (!layer || !input) return;
    if (!force && input.indicators === this.applied.indicators && input.digits === this.applied.digits) return;
    this.applied.indicators = input.indicators;
    this.applied.digits = input.digits;
    layer.set(input.indicators, this.bars, input.digits);
    this.show({ indicators: layer.describe() });
  }

  private async loadDrawings(): Promise<void> {
    if (this.loading.drawings) return;
    this.loading.drawings = true;
    const mod = await import('./drawings/index.ts').catch(() => null);
    if (!mod || this.disposed || !this.input) return;
    this.drawingModule = mod;
    this.drawingLayer = new mod.DrawingLayer(this.chart, this.series, this.drawingOptions(this.input));
    this.drawingLayer.setBars(this.bars);
    this.applied.drawings = undefined;
    this.applied.tool = undefined;
    this.applied.options = this.optionsKey(this.input);
    this.applyDrawings();
  }

  private applyDrawings(): void {
    const layer = this.drawingLayer;
    const input = this.input;
    if (!layer || !input) return;
    const key = this.optionsKey(input);
    if (key !== this.applied.options) {
      this.applied.options = key;
      layer.setOptions(this.drawingOptions(input));
    }
    if (input.drawings !== this.applied.drawings) {
      this.applied.drawings = input.drawings;
      layer.setDrawings(input.drawings);
      this.show({ drawings: input.drawings.map((d) => `${d.kind}:${d.id}`).join(' ') });
    }
    if (input.tool !== this.applied.tool) {
      this.applied.tool = input.tool;
      layer.setTool(input.tool);
      this.show({ tool: input.tool ?? '' });
    }
  }

  private optionsKey(i: StudiesInput): string {
    return [i.symbol, i.digits, i.interval, i.quoteCurrency, i.t('{{value}} bars', { value: 0 })].join('|');
  }

  private drawingOptions(input: StudiesInput): DrawingLayerOptions {
    const mod = this.drawingModule as DrawingModule;
    const { theme, t, client, symbol, digits } = input;
    const c = theme.colors;
    const sign = (v: string) => (v.startsWith('-') ? v : `+${v}`);
    return {
      digits,
      pip: pipSize(input.quoteCurrency).toNumber(),
      barSeconds: CHART_INTERVAL_SPECS[input.interval].seconds,
      colors: { line: c.blue[4], selected: c.yellow[4], up: c.teal[5], down: c.red[5], labelBackground: c.dark[7] },
      font: `11px ${theme.fontFamily}`,
      measureText: (m) =>
        `${sign(m.delta.toFixed(digits))} (${sign(m.percent.toFixed(2))}%) · ${t('{{value}} pips', {
          value: m.pips.toFixed(1),
        })} · ${t('{{value}} bars', { value: m.bars })}`,
      onCreate: (shape) => mod.createDrawing(client, symbol, shape).catch(failed),
      onChange: (id, shape) => mod.updateDrawing(client, symbol, id, shape).catch(failed),
      onDelete: (id) => mod.deleteDrawings(client, symbol, [id]).catch(failed),
      onSelect: (selected) => this.show({ selected }),
      onToolDone: () => this.input?.onToolDone(),
    };
  }
}
