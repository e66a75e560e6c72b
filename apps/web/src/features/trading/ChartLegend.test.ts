import { describe, expect, it } from 'vitest';
import { legendScaleTop, PRICE_TOP_MARGIN } from './ChartLegend.tsx';

describe('room for the crosshair legend above the candles', () => {
  it('starts the candles below the legend: its bottom edge plus air, as a share of the price pane', () => {
    // The terminal's legend starts at 72 px (below SELL and BUY); OHLC and two indicator lines end near 126 px.
    expect(legendScaleTop(126, 400)).toBeCloseTo(134 / 400);
    // A short legend in a tall pane keeps the usual margin.
    expect(legendScaleTop(26, 600)).toBe(PRICE_TOP_MARGIN);
  });

  it('never gives the legend more than half the pane, and falls back before the chart has a size', () => {
    expect(legendScaleTop(200, 150)).toBe(0.5);
    expect(legendScaleTop(126, 0)).toBe(PRICE_TOP_MARGIN);
    expect(legendScaleTop(0, 400)).toBe(PRICE_TOP_MARGIN);
  });
});
