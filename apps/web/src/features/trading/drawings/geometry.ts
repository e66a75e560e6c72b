/**
 * The drawing tools' arithmetic, apart from the canvas: where a point's time falls among the bars (as a fractional
 * bar index, so a drawing made on one timeframe lands in the right place on another), what a measure reads, and
 * how near the pointer is to a line.
 */

interface Timed {
  time: number;
}

/**
 * The fractional bar index of a time: between two bars it is interpolated, before the first or after the last it
 * goes on at `barSeconds` a bar (the chart's blank space on the right is future bars).
 */
export function timeToLogical(bars: readonly Timed[], time: number, barSeconds: number): number {
  const n = bars.length;
  if (n === 0) return 0;
  if (time <= bars[0].time) return (time - bars[0].time) / barSeconds;
  if (time >= bars[n - 1].time) return n - 1 + (time - bars[n - 1].time) / barSeconds;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bars[mid].time <= time) lo = mid;
    else hi = mid;
  }
  return lo + (time - bars[lo].time) / (bars[hi].time - bars[lo].time);
}

/** The time of a (possibly fractional or out-of-range) bar index, the inverse of timeToLogical, in whole seconds. */
export function logicalToTime(bars: readonly Timed[], logical: number, barSeconds: number): number {
  const n = bars.length;
  if (n === 0) return 0;
  if (logical <= 0) return Math.round(bars[0].time + logical * barSeconds);
  if (logical >= n - 1) return Math.round(bars[n - 1].time + (logical - (n - 1)) * barSeconds);
  const i = Math.floor(logical);
  return Math.round(bars[i].time + (logical - i) * (bars[i + 1].time - bars[i].time));
}

export interface Measure {
  /** Second price minus the first. */
  delta: number;
  /** The change in per cent of the first price. */
  percent: number;
  /** The change in pips of the instrument (a pip is 0.0001, or 0.01 when JPY is quoted). */
  pips: number;
  /** Bars from the first point to the second (negative when drawn right to left). */
  bars: number;
}

export function measure(
  from: { logical: number; price: number },
  to: { logical: number; price: number },
  pip: number,
): Measure {
  const delta = to.price - from.price;
  return {
    delta,
    percent: (delta / from.price) * 100,
    pips: delta / pip,
    bars: Math.round(to.logical) - Math.round(from.logical),
  };
}

/** Distance from (x, y) to the segment from (ax, ay) to (bx, by), in pixels. */
export function distanceToSegment(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length2));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** A price to the instrument's digits, as a number (what a drawing stores). */
export const roundPrice = (price: number, digits: number): number =>
  Number(price.toFixed(Math.min(Math.max(digits, 0), 8)));
