import { describe, expect, it } from 'vitest';
import { ChartSettings, DrawingCreateRequest, DrawingShape, INDICATOR_DEFAULTS } from './schemas/chart.ts';
import { chartBarStart } from './trading.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('chartBarStart', () => {
  it('starts a week on Monday 00:00 UTC, the Sunday before still in the week before', () => {
    const monday = at('2026-11-23T00:00:00Z');
    expect(chartBarStart('1w', monday)).toBe(monday);
    expect(chartBarStart('1w', at('2026-11-25T13:45:00Z'))).toBe(monday);
    expect(chartBarStart('1w', at('2026-11-29T23:59:59Z'))).toBe(monday);
    expect(chartBarStart('1w', at('2026-11-22T23:59:59Z'))).toBe(at('2026-11-16T00:00:00Z'));
    // Across a year's end, and the week of the epoch (which fell on a Thursday).
    expect(chartBarStart('1w', at('2027-01-01T12:00:00Z'))).toBe(at('2026-12-28T00:00:00Z'));
    expect(chartBarStart('1w', 0)).toBe(at('1969-12-29T00:00:00Z'));
  });

  it('starts a month on its 1st at 00:00 UTC, whatever its length', () => {
    expect(chartBarStart('1mo', at('2026-02-28T23:59:59Z'))).toBe(at('2026-02-01T00:00:00Z'));
    expect(chartBarStart('1mo', at('2026-03-01T00:00:00Z'))).toBe(at('2026-03-01T00:00:00Z'));
    expect(chartBarStart('1mo', at('2028-02-29T10:00:00Z'))).toBe(at('2028-02-01T00:00:00Z'));
    expect(chartBarStart('1mo', at('2026-12-31T23:59:59Z'))).toBe(at('2026-12-01T00:00:00Z'));
  });

  it('cuts the shorter bars by their length', () => {
    expect(chartBarStart('4h', at('2026-11-25T13:45:00Z'))).toBe(at('2026-11-25T12:00:00Z'));
    expect(chartBarStart('1d', at('2026-11-25T13:45:00Z'))).toBe(at('2026-11-25T00:00:00Z'));
  });
});

describe('chart schemas', () => {
  it('take the default indicators and refuse unknown ones, bad periods and too many', () => {
    expect(ChartSettings.safeParse({ indicators: Object.values(INDICATOR_DEFAULTS) }).success).toBe(true);
    expect(ChartSettings.safeParse({ indicators: [{ type: 'ichimoku' }] }).success).toBe(false);
    expect(ChartSettings.safeParse({ indicators: [{ type: 'rsi', period: 1 }] }).success).toBe(false);
    expect(ChartSettings.safeParse({ indicators: [{ type: 'sma', period: 2.5 }] }).success).toBe(false);
    expect(ChartSettings.safeParse({ indicators: [{ type: 'macd', fast: 26, slow: 12, signal: 9 }] }).success).toBe(
      false,
    );
    expect(ChartSettings.safeParse({ indicators: Array(11).fill(INDICATOR_DEFAULTS.ema) }).success).toBe(false);
  });

  it('take a drawing with the points of its kind, bounded', () => {
    const p = { time: at('2026-11-23T00:00:00Z'), price: 1.1 };
    expect(DrawingCreateRequest.safeParse({ symbol: 'EUR_USD', kind: 'trend', points: [p, p] }).success).toBe(true);
    expect(DrawingCreateRequest.safeParse({ symbol: 'EUR_USD', kind: 'trend', points: [p] }).success).toBe(false);
    expect(DrawingCreateRequest.safeParse({ kind: 'hline', points: [p] }).success).toBe(false);
    expect(DrawingShape.safeParse({ kind: 'hline', points: [{ ...p, price: -1 }] }).success).toBe(false);
    expect(DrawingShape.safeParse({ kind: 'hline', points: [{ ...p, time: 1e12 }] }).success).toBe(false);
    expect(DrawingShape.safeParse({ kind: 'circle', points: [p] }).success).toBe(false);
  });
});
