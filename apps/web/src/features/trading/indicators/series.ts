import {
  type CustomData,
  type CustomSeriesOptions,
  customSeriesDefaultOptions,
  type ICustomSeriesPaneRenderer,
  type ICustomSeriesPaneView,
  type PaneRendererCustomData,
  type PriceToCoordinateConverter,
  type Time,
} from 'lightweight-charts';

/**
 * An indicator's line or histogram as a lightweight-charts custom series. The library's own line and histogram
 * series would do, but their code would join the chart's chunk on every first load (the library is one module);
 * drawn here, it stays in the chunk loaded with the first indicator.
 */

export interface IndicatorPoint extends CustomData<Time> {
  value: number;
}

export interface IndicatorSeriesOptions extends CustomSeriesOptions {
  kind: 'line' | 'histogram';
  lineWidth: number;
  /** [dash, gap] in pixels, or none for a solid line. */
  dash: number[];
  up: string;
  down: string;
}

const DEFAULTS: IndicatorSeriesOptions = {
  ...customSeriesDefaultOptions,
  kind: 'line',
  lineWidth: 2,
  dash: [],
  up: '#12b886',
  down: '#fa5252',
};

type Data = PaneRendererCustomData<Time, IndicatorPoint>;

export class IndicatorSeriesView implements ICustomSeriesPaneView<Time, IndicatorPoint, IndicatorSeriesOptions> {
  private data: Data | null = null;
  private options: IndicatorSeriesOptions = DEFAULTS;
  private readonly drawer: ICustomSeriesPaneRenderer = {
    draw: (target, toY) =>
      target.useMediaCoordinateSpace(({ context }) => {
        const data = this.data;
        if (!data?.visibleRange || data.bars.length === 0) return;
        // One item beyond each side of the view, so a line leaves the edge instead of stopping short of it.
        const from = Math.max(0, data.visibleRange.from - 1);
        const to = Math.min(data.bars.length, data.visibleRange.to + 1);
        if (this.options.kind === 'histogram') this.bars(context, data, from, to, toY);
        else this.line(context, data, from, to, toY);
      }),
  };

  renderer(): ICustomSeriesPaneRenderer {
    return this.drawer;
  }

  update(data: Data, options: IndicatorSeriesOptions): void {
    this.data = data;
    this.options = options;
  }

  priceValueBuilder(row: IndicatorPoint): number[] {
    // A histogram's scale always includes its zero line; the last value is the current one.
    return this.options.kind === 'histogram' ? [0, row.value] : [row.value];
  }

  isWhitespace(row: IndicatorPoint | { time: Time }): row is { time: Time } {
    return typeof (row as IndicatorPoint).value !== 'number';
  }

  defaultOptions(): IndicatorSeriesOptions {
    return DEFAULTS;
  }

  private line(ctx: CanvasRenderingContext2D, data: Data, from: number, to: number, toY: PriceToCoordinateConverter) {
    ctx.beginPath();
    let started = false;
    for (let i = from; i < to; i++) {
      const bar = data.bars[i];
      const y = toY(bar.originalData.value);
      if (y === null) continue;
      if (started) ctx.lineTo(bar.x, y);
      else ctx.moveTo(bar.x, y);
      started = true;
    }
    ctx.strokeStyle = this.options.color;
    ctx.lineWidth = this.options.lineWidth;
    ctx.lineJoin = 'round';
    ctx.setLineDash(this.options.dash);
    ctx.stroke();
  }

  private bars(ctx: CanvasRenderingContext2D, data: Data, from: number, to: number, toY: PriceToCoordinateConverter) {
    const zero = toY(0);
    if (zero === null) return;
    const width = Math.max(1, Math.floor(data.barSpacing * data.conflationFactor * 0.6));
    for (let i = from; i < to; i++) {
      const bar = data.bars[i];
      const value = bar.originalData.value;
      const y = toY(value);
      if (y === null) continue;
      ctx.fillStyle = value >= 0 ? this.options.up : this.options.down;
      ctx.fillRect(bar.x - width / 2, Math.min(y, zero), width, Math.max(1, Math.abs(zero - y)));
    }
  }
}
