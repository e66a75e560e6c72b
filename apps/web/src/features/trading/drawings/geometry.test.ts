import { describe, expect, it } from 'vitest';
import { distanceToSegment, logicalToTime, measure, roundPrice, timeToLogical } from './geometry.ts';

const DAY = 86_400;
// Daily bars Monday to Friday, then the next Monday (no weekend bars).
const monday = Date.UTC(2026, 10, 16) / 1000;
const bars = [0, 1, 2, 3, 4, 7].map((d) => ({ time: monday + d * DAY }));

describe('time and bar index', () => {
  it('finds a bar time at its index and interpolates between bars across a weekend', () => {
    expect(timeToLogical(bars, monday + 2 * DAY, DAY)).toBe(2);
    expect(timeToLogical(bars, monday + 2.5 * DAY, DAY)).toBe(2.5);
    // Saturday noon lies between Friday (4) and Monday (5): 1.5 of the 3 days.
    expect(timeToLogical(bars, monday + 5.5 * DAY, DAY)).toBe(4.5);
  });

  it('goes on at one bar a bar length past either end', () => {
    expect(timeToLogical(bars, monday + 9 * DAY, DAY)).toBe(7);
    expect(timeToLogical(bars, monday - 2 * DAY, DAY)).toBe(-2);
    expect(logicalToTime(bars, 7, DAY)).toBe(monday + 9 * DAY);
    expect(logicalToTime(bars, -1, DAY)).toBe(monday - DAY);
  });

  it('maps an index back to the time it came from', () => {
    for (const t of [monday, monday + 3 * DAY, monday + 5.5 * DAY, monday + 12 * DAY])
      expect(logicalToTime(bars, timeToLogical(bars, t, DAY), DAY)).toBe(t);
  });

  it('puts a daily point inside its week on a weekly chart', () => {
    const weeks = [0, 7, 14].map((d) => ({ time: monday + d * DAY }));
    expect(timeToLogical(weeks, monday + 10 * DAY, 7 * DAY)).toBeCloseTo(1 + 3 / 7, 10);
  });
});

describe('measure', () => {
  it('reads the price change, per cent, pips and bars of EUR/USD', () => {
    const m = measure({ logical: 10, price: 1.08 }, { logical: 24, price: 1.0854 }, 0.0001);
    expect(m.delta).toBeCloseTo(0.0054, 10);
    expect(m.percent).toBeCloseTo(0.5, 10);
    expect(m.pips).toBeCloseTo(54, 8);
    expect(m.bars).toBe(14);
  });

  it('is negative drawn downwards or leftwards, and counts JPY pips in hundredths', () => {
    const m = measure({ logical: 20, price: 150 }, { logical: 15, price: 148.5 }, 0.01);
    expect(m.pips).toBeCloseTo(-150, 8);
    expect(m.percent).toBeCloseTo(-1, 10);
    expect(m.bars).toBe(-5);
  });
});

describe('hit testing and rounding', () => {
  it('measures the distance to a segment, its ends included', () => {
    expect(distanceToSegment(5, 3, 0, 0, 10, 0)).toBe(3);
    expect(distanceToSegment(13, 4, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(1, 1, 2, 2, 2, 2)).toBeCloseTo(Math.SQRT2, 10);
  });

  it('rounds a price to the digits of the instrument', () => {
    expect(roundPrice(1.0812345, 5)).toBe(1.08123);
    expect(roundPrice(151.23456, 3)).toBe(151.235);
  });
});
