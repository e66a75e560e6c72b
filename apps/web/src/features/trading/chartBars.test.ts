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
    expect(liveBar(bar, 1.085, Date.UTC(2025, 2, 4, 11, 59), '4h')).toEqual({ ...bar, high: 1.085, close: 1.085 });
    expect(liveBar(bar, 1.084, Date.UTC(2025, 2, 4, 12, 0, 1), '4h')).toEqual({
      time: start + h4,
      open: 1.084,
      high: 1.084,
      low: 1.084,
      close: 1.084,
    });
  });
});

describe('live weekly and monthly bars', () => {
  const monday = Date.UTC(2025, 2, 3) / 1000;
  const week = { time: monday, open: 1.08, high: 1.09, low: 1.07, close: 1.085 };

  it('keeps a tick of Sunday in the week that began on Monday, and opens a new week on the next Monday', () => {
    expect(liveBar(week, 1.095, Date.UTC(2025, 2, 9, 23, 0), '1w')).toEqual({ ...week, high: 1.095, close: 1.095 });
    expect(liveBar(week, 1.08, Date.UTC(2025, 2, 10, 0, 0, 1), '1w')).toMatchObject({
      time: monday + 7 * 86_400,
      open: 1.08,
    });
  });

  it('opens a new month on the 1st', () => {
    const march = { ...week, time: Date.UTC(2025, 2, 1) / 1000 };
    expect(liveBar(march, 1.07, Date.UTC(2025, 2, 31, 23, 59), '1mo').time).toBe(march.time);
    expect(liveBar(march, 1.07, Date.UTC(2025, 3, 1, 0, 0, 1), '1mo').time).toBe(Date.UTC(2025, 3, 1) / 1000);
  });
});
