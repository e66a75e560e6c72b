import { useEffect, useRef, useState, type RefObject } from 'react';
import { useMantineTheme } from '@mantine/core';
import { LineStyle, type IChartApi, type IPriceLine, type ISeriesApi } from 'lightweight-charts';
import type { ChartLine, LineRole } from './chartLines.ts';
import { LineDragController, type PointerLike } from './lineDrag.ts';

export type LineDropHandler = (line: ChartLine, price: number) => Promise<unknown>;

interface Drawn {
  line: IPriceLine;
  spec: ChartLine;
}

/**
 * Draws the lines on the series (created, moved and removed as they change) and lets the pointer drag the draggable
 * ones, to the instrument's digits (Shift: a step a pixel; arrow keys: a step, ten with Shift; Escape puts it back).
 * A line being dragged is left alone by updates until it is dropped. Returns whether a line is held.
 */
export function useChartLines(
  container: RefObject<HTMLDivElement | null>,
  chart: RefObject<IChartApi | null>,
  series: RefObject<ISeriesApi<'Candlestick'> | null>,
  lines: readonly ChartLine[],
  digits: number,
  onDrop: LineDropHandler | undefined,
): boolean {
  const theme = useMantineTheme();
  const [holding, setHolding] = useState(false);
  const drawn = useRef(new Map<string, Drawn>());
  // The series the drawn lines belong to: a chart created afresh has none of them.
  const drawnOn = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const controller = useRef<LineDragController | null>(null);
  const latest = useRef({ lines, onDrop, digits });
  latest.current = { lines, onDrop, digits };

  const colors: Record<LineRole, string> = {
    entry: theme.colors.blue[4],
    loss: theme.colors.red[5],
    profit: theme.colors.teal[5],
    pending: theme.colors.orange[5],
  };
  const styles: Record<LineRole, LineStyle> = {
    entry: LineStyle.Solid,
    loss: LineStyle.Dashed,
    profit: LineStyle.Dashed,
    pending: LineStyle.Dotted,
  };

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    if (drawnOn.current !== s) {
      drawn.current = new Map();
      drawnOn.current = s;
    }
    const seen = new Set<string>();
    const dragging = controller.current?.dragging ?? null;
    for (const spec of lines) {
      seen.add(spec.id);
      const options = {
        price: spec.price,
        color: colors[spec.role],
        lineStyle: styles[spec.role],
        lineWidth: (spec.target ? 2 : 1) as 1 | 2,
        axisLabelVisible: true,
        title: spec.title,
      };
      const had = drawn.current.get(spec.id);
      if (!had) drawn.current.set(spec.id, { line: s.createPriceLine(options), spec });
      else if (spec.id !== dragging && (had.spec.price !== spec.price || had.spec.title !== spec.title)) {
        had.line.applyOptions(options);
        had.spec = spec;
      } else had.spec = { ...spec, price: had.spec.price };
    }
    for (const [id, d] of drawn.current)
      if (!seen.has(id) && id !== dragging) {
        s.removePriceLine(d.line);
        drawn.current.delete(id);
      }
  });

  // The container stays while charts come and go; the chart and series are read when needed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refs are stable
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const c = new LineDragController({
      lines: () => (latest.current.onDrop ? latest.current.lines.filter((l) => l.target) : []),
      priceToY: (price) => series.current?.priceToCoordinate(price) ?? null,
      yToPrice: (y) => series.current?.coordinateToPrice(y) ?? null,
      moveLine: (id, price) => drawn.current.get(id)?.line.applyOptions({ price }),
      setChartInteractive: (on) => {
        chart.current?.applyOptions({ handleScroll: on, handleScale: on });
        setHolding(!on);
      },
      setCursor: (cursor, lineId) => {
        el.style.cursor = cursor;
        el.dataset.hoverLine = lineId ?? '';
      },
      digits: () => latest.current.digits,
      onDrop: (id, price) => {
        const spec = latest.current.lines.find((l) => l.id === id);
        const drop = latest.current.onDrop;
        return spec && drop ? drop(spec, price) : Promise.reject(new Error('gone'));
      },
    });
    controller.current = c;
    const at = (e: PointerEvent): PointerLike => ({
      y: e.clientY - el.getBoundingClientRect().top,
      pointerId: e.pointerId,
      pointerType: e.pointerType,
      fine: e.shiftKey,
      preventDefault: () => e.preventDefault(),
      stopPropagation: () => e.stopPropagation(),
    });
    const down = (e: PointerEvent) => {
      if (c.down(at(e))) el.setPointerCapture?.(e.pointerId);
    };
    const move = (e: PointerEvent) => c.move(at(e));
    const up = (e: PointerEvent) => c.up(at(e));
    const cancel = (e: PointerEvent) => c.up(at(e), true);
    // The chart listens to mouse and touch events below: while a line is held they stop here.
    const shield = (e: Event) => {
      if (c.dragging) e.stopPropagation();
    };
    const key = (e: KeyboardEvent) => {
      if (!c.dragging) return;
      const steps = e.key === 'ArrowUp' ? 1 : e.key === 'ArrowDown' ? -1 : 0;
      if (steps !== 0) c.nudge(e.shiftKey ? steps * 10 : steps);
      else if (e.key === 'Escape') c.cancel();
      else return;
      e.preventDefault();
    };
    const opts = { capture: true } as const;
    window.addEventListener('keydown', key);
    el.addEventListener('pointerdown', down, opts);
    el.addEventListener('pointermove', move, opts);
    el.addEventListener('pointerup', up, opts);
    el.addEventListener('pointercancel', cancel, opts);
    for (const type of ['mousedown', 'mousemove', 'touchstart', 'touchmove'] as const)
      el.addEventListener(type, shield, opts);
    return () => {
      el.removeEventListener('pointerdown', down, opts);
      el.removeEventListener('pointermove', move, opts);
      el.removeEventListener('pointerup', up, opts);
      el.removeEventListener('pointercancel', cancel, opts);
      window.removeEventListener('keydown', key);
      for (const type of ['mousedown', 'mousemove', 'touchstart', 'touchmove'] as const)
        el.removeEventListener(type, shield, opts);
      controller.current = null;
    };
  }, []);

  return holding;
}
