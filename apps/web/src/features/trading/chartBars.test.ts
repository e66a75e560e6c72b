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
    expect(liveBar(last, 1.083, next)).toEqual({ time: day + 86_400, open: 1.083, high: 1.083, low: 1.083, close: 1.083 });
  });
});
