import { describe, expect, it } from 'vitest';
import { dayStart, liveBar } from './chartBars.ts';

const day = Date.UTC(2025, 2, 4) / 1000;
const last = { time: day, open: 1.08, high: 1.085, low: 1.078, close: 1.082 };

describe('live daily bar', () => {
  it('moves the close and stretches high and low within the day', () => {
    const noon = Date.UTC(2025, 2, 4, 12);
    expect(dayStart(noon)).toBe(day);
    expect(liveBar(last, 1.09, noon)).toEqual({ ...last, high: 1.09, close: 1.09 });
    expect(liveBar(last, 1.07, noon)).toEqual({ ...last, low: 1.07, close: 1.07 });
  });

  it('opens a new bar on the next day', () => {
    const next = Date.UTC(2025, 2, 5, 0, 0, 1);
    expect(liveBar(last, 1.083, next)).toEqual({
      time: day + 86_400,
      open: 1.083,
      high: 1.083,
      low: 1.083,
      close: 1.083,
    });
  });
});

describe('live bar of a shorter timeframe', () => {
  it('opens a new 4-hour bar when a tick crosses into the next period, and moves the current one before that', () => {
    const h4 = 14_400;
    const start = Date.UTC(2025, 2, 4, 8) / 1000;
    const bar = { time: start, open: 1.08, high: 1.081, low: 1.079, close: 1.08 };
    expect(liveBar(bar, 1.085, Date.UTC(2025, 2, 4, 11, 59), h4)).toEqual({ ...bar, high: 1.085, close: 1.085 });
    expect(liveBar(bar, 1.084, Date.UTC(2025, 2, 4, 12, 0, 1), h4)).toEqual({
      time: start + h4,
      open: 1.084,
      high: 1.084,
      low: 1.084,
      close: 1.084,
    });
  });
});
