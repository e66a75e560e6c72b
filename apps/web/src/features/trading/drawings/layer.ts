import type {
  IChartApi,
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesApi,
  ISeriesPrimitive,
  Logical,
  SeriesAttachedParameter,
  Time,
} from 'lightweight-charts';
import type { ChartPoint, DrawingDto, DrawingKind, DrawingShape } from '@platform/domain';
import { distanceToSegment, logicalToTime, type Measure, measure, roundPrice, timeToLogical } from './geometry.ts';

export interface DrawingColors {
  line: string;
  selected: string;
  up: string;
  down: string;
  labelBackground: string;
}

export interface DrawingLayerOptions {
  digits: number;
  /** Price of one pip of the instrument. */
  pip: number;
  /** Length of one bar, to place points beyond the last bar. */
  barSeconds: number;
  colors: DrawingColors;
  font: string;
  /** The measure's label (translated by the page). */
  measureText: (m: Measure) => string;
  onCreate: (shape: DrawingShape) => void;
  onChange: (id: number, shape: DrawingShape) => void;
  onDelete: (id: number) => void;
  onSelect: (id: number | null) => void;
  /** A drawing was finished or cancelled: the tool goes back to none. */
  onToolDone: () => void;
}

interface Shape {
  id: number;
  kind: DrawingKind;
  points: ChartPoint[];
}

type Handle = 0 | 1 | 'body';

interface Drag {
  id: number;
  handle: Handle;
  start: { logical: number; price: number };
  original: ChartPoint[];
  pointerId: number;
  moved: boolean;
}

interface Pos {
  x: number;
  y: number;
}

const HANDLE_RADIUS = 9;
const LINE_SLACK = 6;
/** A press that moves less than this is a click (on a touch screen the finger wanders a little). */
const CLICK_SLACK = 6;
const POINTS: Record<DrawingKind, number> = { hline: 1, trend: 2, range: 2 };

/**
 * The drawing tools on the candle series: horizontal lines, trend lines and measures, drawn on the chart's canvas as
 * a series primitive (so they move with every scroll and zoom), made with clicks (one for a line, two for the
 * others), selected with a click, moved by their ends or body, deleted with the Delete key. Loaded with the first
 * drawing or tool, so a chart without any never downloads this code.
 */
export class DrawingLayer implements ISeriesPrimitive<Time> {
  private drawings: Shape[] = [];
  private bars: readonly { time: number }[] = [];
  private tool: DrawingKind | null = null;
  private draft: { kind: DrawingKind; points: ChartPoint[]; hover: ChartPoint | null } | null = null;
  private selected: number | null = null;
  private drag: Drag | null = null;
  private down: Pos | null = null;
  /** Width of the price pane at the last paint. */
  private width = 0;
  private requestUpdate: (() => void) | null = null;
  private readonly views: readonly IPrimitivePaneView[];
  private readonly el: HTMLElement;
  private readonly detachers: (() => void)[] = [];

  constructor(
    private readonly chart: IChartApi,
    private readonly series: ISeriesApi<'Candlestick'>,
    private options: DrawingLayerOptions,
  ) {
    const renderer: IPrimitivePaneRenderer = {
      draw: (target) => target.useMediaCoordinateSpace(({ context, mediaSize }) => this.draw(context, mediaSize.width)),
    };
    this.views = [{ zOrder: () => 'top', renderer: () => renderer }];
    this.el = chart.chartElement();
    series.attachPrimitive(this);
    this.listen();
  }

  // lightweight-charts primitive hooks
  attached(param: SeriesAttachedParameter<Time>): void {
    this.requestUpdate = param.requestUpdate;
  }
  detached(): void {
    this.requestUpdate = null;
  }
  paneViews(): readonly IPrimitivePaneView[] {
    return this.views;
  }

  setOptions(options: DrawingLayerOptions): void {
    this.options = options;
    this.redraw();
  }

  setBars(bars: readonly { time: number }[]): void {
    this.bars = bars;
    this.redraw();
  }

  /** The saved drawings; one being dragged keeps its place until it is dropped. */
  setDrawings(list: readonly DrawingDto[]): void {
    const dragged = this.drag ? this.drawings.find((d) => d.id === this.drag?.id) : undefined;
    this.drawings = list.map((d) => (dragged && d.id === dragged.id ? dragged : { ...d, points: [...d.points] }));
    if (this.selected !== null && !list.some((d) => d.id === this.selected)) this.select(null);
    this.redraw();
  }

  setTool(tool: DrawingKind | null): void {
    if (tool === this.tool) return;
    this.tool = tool;
    this.draft = tool ? { kind: tool, points: [], hover: null } : null;
    if (tool) this.select(null);
    this.el.style.cursor = tool ? 'crosshair' : '';
    this.redraw();
  }

  dispose(): void {
    for (const off of this.detachers) off();
    this.el.style.cursor = '';
    this.series.detachPrimitive(this);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Coordinates

  private logicalOf(time: number): number {
    return timeToLogical(this.bars, time, this.options.barSeconds);
  }

  private xOf(time: number): number | null {
    return this.chart.timeScale().logicalToCoordinate(this.logicalOf(time) as Logical);
  }

  private yOf(price: number): number | null {
    return this.series.priceToCoordinate(price);
  }

  /** The chart point under a position: snapped to a bar, the price to the instrument's digits. */
  private pointAt(pos: Pos): (ChartPoint & { logical: number }) | null {
    const logical = this.chart.timeScale().coordinateToLogical(pos.x);
    const price = this.series.coordinateToPrice(pos.y);
    if (logical === null || price === null || price <= 0) return null;
    const snapped = Math.round(logical);
    return {
      logical: snapped,
      time: logicalToTime(this.bars, snapped, this.options.barSeconds),
      price: roundPrice(price, this.options.digits),
    };
  }

  private local(e: PointerEvent): Pos | null {
    const r = this.el.getBoundingClientRect();
    const pos = { x: e.clientX - r.left, y: e.clientY - r.top };
    // Only the price pane: not its price scale, the time scale or an indicator's pane below.
    const width = this.chart.timeScale().width();
    const height = this.chart.paneSize(0).height;
    return pos.x >= 0 && pos.x <= width && pos.y >= 0 && pos.y <= height ? pos : null;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Pointer and keys

  private listen(): void {
    const on = <K extends keyof HTMLElementEventMap>(
      target: HTMLElement | Window,
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
    ) => {
      const opts = { capture: true };
      target.addEventListener(type, fn as EventListener, opts);
      this.detachers.push(() => target.removeEventListener(type, fn as EventListener, opts));
    };
    on(this.el, 'pointerdown', (e) => this.pointerDown(e));
    on(this.el, 'pointermove', (e) => this.pointerMove(e));
    on(this.el, 'pointerup', (e) => this.pointerUp(e));
    on(this.el, 'pointercancel', () => this.endDrag(false));
    // While a drawing is held, the chart must not pan under it.
    const shield = (e: Event) => {
      if (this.drag) e.stopPropagation();
    };
    for (const type of ['mousedown', 'mousemove', 'touchstart', 'touchmove'] as const) on(this.el, type, shield);
    on(window, 'keydown', (e) => this.key(e));
  }

  private pointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const pos = this.local(e);
    if (!pos) return;
    if (this.tool) {
      this.down = pos;
      return;
    }
    const hit = this.drawingAt(pos);
    if (!hit) {
      if (this.selected !== null) this.select(null);
      return;
    }
    const at = this.pointAt(pos);
    const shape = this.drawings.find((d) => d.id === hit.id);
    if (!at || !shape) return;
    this.select(hit.id);
    e.preventDefault();
    e.stopPropagation();
    this.drag = {
      id: hit.id,
      handle: hit.handle,
      start: { logical: this.chart.timeScale().coordinateToLogical(pos.x) ?? at.logical, price: at.price },
      original: shape.points.map((p) => ({ ...p })),
      pointerId: e.pointerId,
      moved: false,
    };
    this.el.setPointerCapture?.(e.pointerId);
    this.chart.applyOptions({ handleScroll: false, handleScale: false });
    this.el.style.cursor = 'grabbing';
  }

  private pointerMove(e: PointerEvent): void {
    const drag = this.drag;
    if (drag) {
      if (e.pointerId !== drag.pointerId) return;
      e.preventDefault();
      e.stopPropagation();
      const r = this.el.getBoundingClientRect();
      this.dragTo(drag, { x: e.clientX - r.left, y: e.clientY - r.top });
      return;
    }
    const pos = this.local(e);
    if (this.draft) {
      this.draft.hover = pos ? this.pointAt(pos) : null;
      this.redraw();
      return;
    }
    const hit = pos ? this.drawingAt(pos) : null;
    this.el.style.cursor = hit ? (hit.handle === 'body' ? 'move' : 'pointer') : '';
  }

  private pointerUp(e: PointerEvent): void {
    if (this.drag) {
      if (e.pointerId === this.drag.pointerId) this.endDrag(true);
      return;
    }
    const down = this.down;
    this.down = null;
    const pos = this.local(e);
    if (!this.draft || !down || !pos) return;
    if (Math.hypot(pos.x - down.x, pos.y - down.y) > CLICK_SLACK) return; // a pan of the chart, not a click
    const point = this.pointAt(pos);
    if (!point) return;
    const draft = this.draft;
    draft.points.push({ time: point.time, price: point.price });
    if (draft.points.length < POINTS[draft.kind]) {
      this.redraw();
      return;
    }
    const shape = { kind: draft.kind, points: draft.points } as DrawingShape;
    this.draft = null;
    this.tool = null;
    this.el.style.cursor = '';
    this.options.onCreate(shape);
    this.options.onToolDone();
  }

  private key(e: KeyboardEvent): void {
    const typing = e.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
    if (typing) return;
    if (e.key === 'Escape' && (this.tool || this.drag || this.selected !== null)) {
      if (this.drag) this.endDrag(false);
      else if (this.tool) {
        this.setTool(null);
        this.options.onToolDone();
      } else this.select(null);
      e.preventDefault();
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && this.selected !== null && this.selected > 0) {
      this.options.onDelete(this.selected);
      e.preventDefault();
    }
  }

  private dragTo(drag: Drag, pos: Pos): void {
    const shape = this.drawings.find((d) => d.id === drag.id);
    const logical = this.chart.timeScale().coordinateToLogical(pos.x);
    const price = this.series.coordinateToPrice(pos.y);
    if (!shape || logical === null || price === null) return;
    const { digits, barSeconds } = this.options;
    const shift = Math.round(logical - drag.start.logical);
    const rise = price - drag.start.price;
    const moved = (p: ChartPoint): ChartPoint => ({
      time: logicalToTime(this.bars, Math.round(this.logicalOf(p.time)) + shift, barSeconds),
      price: roundPrice(Math.max(p.price + rise, 10 ** -digits), digits),
    });
    if (shape.kind === 'hline') shape.points = [{ ...drag.original[0], price: moved(drag.original[0]).price }];
    else if (drag.handle === 'body') shape.points = drag.original.map(moved);
    else {
      shape.points = drag.original.map((p) => ({ ...p }));
      shape.points[drag.handle] = {
        time: logicalToTime(this.bars, Math.round(logical), barSeconds),
        price: roundPrice(Math.max(price, 10 ** -digits), digits),
      };
    }
    drag.moved = true;
    this.redraw();
  }

  private endDrag(keep: boolean): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    this.chart.applyOptions({ handleScroll: true, handleScale: true });
    this.el.style.cursor = '';
    const shape = this.drawings.find((d) => d.id === drag.id);
    if (!shape || !drag.moved) return;
    if (keep) this.options.onChange(shape.id, { kind: shape.kind, points: shape.points } as DrawingShape);
    else shape.points = drag.original;
    this.redraw();
  }

  private select(id: number | null): void {
    if (this.selected === id) return;
    this.selected = id;
    this.options.onSelect(id);
    this.redraw();
  }

  /** The drawing (and the part of it) under a position: an end first, then the line or area. */
  private drawingAt(pos: Pos): { id: number; handle: Handle } | null {
    for (let i = this.drawings.length - 1; i >= 0; i--) {
      const d = this.drawings[i];
      if (d.id < 0) continue; // not saved yet
      const xy = d.points.map((p) => ({ x: this.xOf(p.time), y: this.yOf(p.price) }));
      if (d.kind === 'hline') {
        const y = xy[0].y;
        if (y !== null && Math.abs(pos.y - y) <= LINE_SLACK) return { id: d.id, handle: 'body' };
        continue;
      }
      const [a, b] = xy;
      if (a.x === null || a.y === null || b.x === null || b.y === null) continue;
      if (Math.hypot(pos.x - a.x, pos.y - a.y) <= HANDLE_RADIUS) return { id: d.id, handle: 0 };
      if (Math.hypot(pos.x - b.x, pos.y - b.y) <= HANDLE_RADIUS) return { id: d.id, handle: 1 };
      const near =
        d.kind === 'trend'
          ? distanceToSegment(pos.x, pos.y, a.x, a.y, b.x, b.y) <= LINE_SLACK
          : pos.x >= Math.min(a.x, b.x) &&
            pos.x <= Math.max(a.x, b.x) &&
            pos.y >= Math.min(a.y, b.y) &&
            pos.y <= Math.max(a.y, b.y);
      if (near) return { id: d.id, handle: 'body' };
    }
    return null;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Drawing

  private redraw(): void {
    this.requestUpdate?.();
  }

  private draw(ctx: CanvasRenderingContext2D, width: number): void {
    this.width = width;
    ctx.save();
    ctx.font = this.options.font;
    for (const d of this.drawings) this.drawShape(ctx, width, d, d.id === this.selected);
    const draft = this.draft;
    if (draft && draft.points.length > 0 && draft.hover)
      this.drawShape(ctx, width, { id: 0, kind: draft.kind, points: [...draft.points, draft.hover] }, true);
    ctx.restore();
  }

  private drawShape(ctx: CanvasRenderingContext2D, width: number, d: Shape, selected: boolean): void {
    const { colors, digits } = this.options;
    const color = selected ? colors.selected : colors.line;
    ctx.lineWidth = selected ? 2 : 1.5;
    ctx.strokeStyle = color;
    if (d.kind === 'hline') {
      const y = this.yOf(d.points[0].price);
      if (y === null) return;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(width, y);
      ctx.stroke();
      this.label(ctx, d.points[0].price.toFixed(digits), width - 4, y - 4, 'right', color);
      return;
    }
    const [p, q] = d.points;
    const ax = this.xOf(p.time);
    const ay = this.yOf(p.price);
    const bx = this.xOf(q.time);
    const by = this.yOf(q.price);
    if (ax === null || ay === null || bx === null || by === null) return;
    if (d.kind === 'trend') {
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
      ctx.stroke();
    } else {
      const up = q.price >= p.price;
      const tone = up ? colors.up : colors.down;
      ctx.fillStyle = tone;
      ctx.globalAlpha = 0.18;
      ctx.fillRect(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
      ctx.globalAlpha = 1;
      ctx.strokeStyle = selected ? colors.selected : tone;
      ctx.strokeRect(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
      const m = measure(
        { logical: this.logicalOf(p.time), price: p.price },
        { logical: this.logicalOf(q.time), price: q.price },
        this.options.pip,
      );
      // The label outside the box, on the side the price went.
      this.label(
        ctx,
        this.options.measureText(m),
        (ax + bx) / 2,
        up ? Math.min(ay, by) - 8 : Math.max(ay, by) + 20,
        'center',
        tone,
      );
    }
    if (selected)
      for (const [x, y] of [
        [ax, ay],
        [bx, by],
      ]) {
        ctx.beginPath();
        ctx.fillStyle = colors.labelBackground;
        ctx.arc(x, y, 4.5, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
      }
  }

  private label(
    ctx: CanvasRenderingContext2D,
    text: string,
    x: number,
    y: number,
    align: 'right' | 'center',
    color: string,
  ): void {
    const w = ctx.measureText(text).width + 10;
    // Kept inside the pane, whatever part of the drawing is scrolled out of view.
    const left = Math.max(2, Math.min(align === 'right' ? x - w : x - w / 2, this.width - w - 2));
    ctx.fillStyle = this.options.colors.labelBackground;
    ctx.globalAlpha = 0.85;
    ctx.fillRect(left, y - 13, w, 18);
    ctx.globalAlpha = 1;
    ctx.fillStyle = color;
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(text, left + 5, y);
  }
}
