import type { Candle, IndicatorConfig, IndicatorType } from '@platform/domain';
import { atr, bollinger, ema, macd, rsi, type Series, sma, stochastic } from './math.ts';

/** Names in the menu (English keys, translated where shown). */
export const INDICATOR_NAMES: Record<IndicatorType, string> = {
  sma: 'Simple moving average (SMA)',
  ema: 'Exponential moving average (EMA)',
  bb: 'Bollinger Bands',
  rsi: 'Relative strength index (RSI)',
  macd: 'MACD',
  stoch: 'Stochastic oscillator',
  atr: 'Average true range (ATR)',
};

/** The editable parameters of each indicator, in the order they are written: RSI(14), MACD(12, 26, 9)... */
export const INDICATOR_PARAMS: { [T in IndicatorType]: { key: string; label: string; decimal?: boolean }[] } = {
  sma: [{ key: 'period', label: 'Period' }],
  ema: [{ key: 'period', label: 'Period' }],
  bb: [
    { key: 'period', label: 'Period' },
    { key: 'stdDev', label: 'Deviations', decimal: true },
  ],
  rsi: [{ key: 'period', label: 'Period' }],
  macd: [
    { key: 'fast', label: 'Fast period' },
    { key: 'slow', label: 'Slow period' },
    { key: 'signal', label: 'Signal period' },
  ],
  stoch: [
    { key: 'kPeriod', label: '%K period' },
    { key: 'kSmooth', label: '%K smoothing' },
    { key: 'dPeriod', label: '%D period' },
  ],
  atr: [{ key: 'period', label: 'Period' }],
};

const SHORT: Record<IndicatorType, string> = {
  sma: 'SMA',
  ema: 'EMA',
  bb: 'BB',
  rsi: 'RSI',
  macd: 'MACD',
  stoch: 'Stoch',
  atr: 'ATR',
};

/** The indicator as a chart legend writes it: EMA(20), BB(20, 2), MACD(12, 26, 9). */
export function shortLabel(c: IndicatorConfig): string {
  const values = INDICATOR_PARAMS[c.type].map((p) => (c as unknown as Record<string, number>)[p.key]);
  return `${SHORT[c.type]}(${values.join(', ')})`;
}

/** Moving averages and bands share the price pane; the oscillators get a pane each below it. */
export const onPricePane = (type: IndicatorType): boolean => type === 'sma' || type === 'ema' || type === 'bb';

export interface Output {
  /** Legend name of the line within its indicator ('' for the only one). */
  name: string;
  values: Series;
  kind: 'line' | 'histogram';
}

/** The lines (and histogram) one indicator draws over the bars. */
export function outputsOf(c: IndicatorConfig, bars: readonly Candle[]): Output[] {
  const closes = bars.map((b) => b.close);
  const line = (name: string, values: Series): Output => ({ name, values, kind: 'line' });
  switch (c.type) {
    case 'sma':
      return [line('', sma(closes, c.period))];
    case 'ema':
      return [line('', ema(closes, c.period))];
    case 'bb': {
      const b = bollinger(closes, c.period, c.stdDev);
      return [line('upper', b.upper), line('middle', b.middle), line('lower', b.lower)];
    }
    case 'rsi':
      return [line('', rsi(closes, c.period))];
    case 'macd': {
      const m = macd(closes, c.fast, c.slow, c.signal);
      return [
        line('macd', m.macd),
        line('signal', m.signal),
        { name: 'histogram', values: m.histogram, kind: 'histogram' },
      ];
    }
    case 'stoch': {
      const s = stochastic(bars, c.kPeriod, c.kSmooth, c.dPeriod);
      return [line('%K', s.k), line('%D', s.d)];
    }
    case 'atr':
      return [line('', atr(bars, c.period))];
  }
}

/** Levels drawn across an oscillator's pane, and its fixed range. */
export const LEVELS: Partial<Record<IndicatorType, { levels: number[]; range: [number, number] }>> = {
  rsi: { levels: [70, 30], range: [0, 100] },
  stoch: { levels: [80, 20], range: [0, 100] },
};
