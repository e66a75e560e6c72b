import { type IChartApi, type ISeriesApi, LineStyle, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { Candle, IndicatorConfig } from '@platform/domain';
import { LEVELS, onPricePane, type Output, outputsOf, shortLabel } from './catalog.ts';
import { type IndicatorPoint, type IndicatorSeriesOptions, IndicatorSeriesView } from './series.ts';

export interface IndicatorColors {
  /** One colour per indicator, in turn. */
  palette: readonly string[];
  /** Second line of an indicator (MACD signal, stochastic %D). */
  second: string;
  up: string;
  down: string;
  level: string;
}

/** One indicator's values under the crosshair, for the legend. */
export interface LegendEntry {
  label: string;
  color: string;
  values: string[];
}

type AnySeries = ISeriesApi<'Custom', Time, IndicatorPoint | { time: UTCTimestamp }, IndicatorSeriesOptions>;

interface Study {
  config: IndicatorConfig;
  label: string;
  color: string;
  /** Decimals its values are shown with. */
  precision: number;
  series: AnySeries[];
  outputs: Output[];
}

const time = (t: number) => t as UTCTimestamp;
const rank = (o: Output) => (o.kind === 'histogram' ? 0 : 1);

/**
 * The indicators drawn on a chart: moving averages and Bollinger Bands over the candles, each oscillator (RSI, MACD,
 * stochastic, ATR) in a pane of its own below them (lightweight-charts panes). Loaded with the first indicator, so
 * a chart without any never downloads this code.
 */
export class IndicatorLayer {
  private studies: Study[] = [];
  private key = '';
  private bars: readonly Candle[] = [];

  constructor(
    private readonly chart: IChartApi,
    private readonly colors: IndicatorColors,
  ) {}

  /** Draws `configs` over `bars` (rebuilding the series when the list or the digits changed). */
  set(configs: readonly IndicatorConfig[], bars: readonly Candle[], digits: number): void {
    const key = `${digits}:${JSON.stringify(configs)}`;
    if (key !== this.key) {
      this.key = key;
      this.rebuild(configs, digits);
    }
    this.bars = bars;
    for (const s of this.studies) {
      s.outputs = outputsOf(s.config, bars);
      for (const [i, o] of s.outputs.entries()) s.series[i].setData(this.points(o, bars));
    }
  }

  /** The same bars with the last one moved or a new one opened by a tick: only the last points change. */
  live(bars: readonly Candle[]): void {
    this.bars = bars;
    const last = bars.at(-1);
    if (!last) return;
    for (const s of this.studies) {
      s.outputs = outputsOf(s.config, bars);
      for (const [i, o] of s.outputs.entries()) {
        const v = o.values.at(-1);
        if (v !== null && v !== undefined) s.series[i].update(this.point(o, last.time, v));
      }
    }
  }

  /** Each indicator's values at bar `index` (the last bar when it is out of range), formatted. */
  valuesAt(index: number): LegendEntry[] {
    const i = index >= 0 && index < this.bars.length ? index : this.bars.length - 1;
    return this.studies.map((s) => ({
      label: s.label,
      color: s.color,
      values: s.outputs.map((o) => {
        const v = o.values[i];
        return v === null || v === undefined ? '–' : v.toFixed(s.precision);
      }),
    }));
  }

  /** What is drawn, as `RSI(14) EMA(20)` (read by tests and the journeys). */
  describe(): string {
    return this.studies.map((s) => s.label).join(' ');
  }

  dispose(): void {
    for (const s of this.studies) for (const series of s.series) this.chart.removeSeries(series);
    this.studies = [];
    this.key = '';
  }

  private rebuild(configs: readonly IndicatorConfig[], digits: number): void {
    this.dispose();
    const { palette } = this.colors;
    let pane = 0;
    this.studies = configs.map((config, n) => {
      const color = palette[n % palette.length];
      const onPrice = onPricePane(config.type);
      const paneIndex = onPrice ? 0 : ++pane;
      const precision = onPrice
        ? digits
        : config.type === 'rsi' || config.type === 'stoch'
          ? 2
          : Math.min(digits + 1, 8);
      const format = { type: 'price' as const, precision, minMove: 10 ** -precision };
      const plain = {
        priceFormat: format,
        priceLineVisible: false,
        lastValueVisible: !onPrice,
        crosshairMarkerVisible: false,
      };
      const outputs = outputsOf(config, []);
      const series: AnySeries[] = new Array(outputs.length);
      // A histogram first, so the lines are drawn over it.
      const order = outputs.map((_, i) => i).sort((a, b) => rank(outputs[a]) - rank(outputs[b]));
      for (const i of order) {
        const o = outputs[i];
        series[i] = this.chart.addCustomSeries(
          new IndicatorSeriesView(),
          {
            ...plain,
            kind: o.kind,
            color: i > 0 && config.type !== 'bb' ? this.colors.second : color,
            lineWidth: config.type === 'bb' ? 1 : 1.5,
            dash: config.type === 'bb' && o.name === 'middle' ? [2, 3] : [],
            up: this.colors.up,
            down: this.colors.down,
            lastValueVisible: !onPrice && i === 0,
          },
          paneIndex,
        ) as AnySeries;
      }
      const fixed = LEVELS[config.type];
      if (fixed) {
        const main = series[0];
        main.applyOptions({
          autoscaleInfoProvider: () => ({ priceRange: { minValue: fixed.range[0], maxValue: fixed.range[1] } }),
        });
        for (const level of fixed.levels)
          main.createPriceLine({
            price: level,
            color: this.colors.level,
            lineStyle: LineStyle.Dashed,
            lineWidth: 1,
            axisLabelVisible: false,
          });
      }
      return { config, label: shortLabel(config), color, precision, series, outputs };
    });
    // The candles keep most of the height: three parts to one for each oscillator pane.
    const panes = this.chart.panes();
    panes[0]?.setStretchFactor(3);
    for (let i = 1; i < panes.length; i++) panes[i].setStretchFactor(1);
  }

  private point(o: Output, t: number, v: number): IndicatorPoint {
    if (o.kind === 'histogram') return { time: time(t), value: v, color: v >= 0 ? this.colors.up : this.colors.down };
    return { time: time(t), value: v };
  }

  private points(o: Output, bars: readonly Candle[]): IndicatorPoint[] {
    const out: IndicatorPoint[] = [];
    for (let i = 0; i < bars.length; i++) {
      const v = o.values[i];
      if (v !== null) out.push(this.point(o, bars[i].time, v));
    }
    return out;
  }
}
