import { describe, expect, it } from 'vitest';
import { atr, bollinger, ema, macd, rsi, sma, stochastic } from './math.ts';

/** Values from `from` on, to two decimals, as the reference tables print them. */
const cents = (series: (number | null)[], from: number) => series.slice(from).map((v) => Number(v?.toFixed(2)));
const hlc = (high: number[], low: number[], close: number[]) =>
  high.map((h, i) => ({ high: h, low: low[i], close: close[i] }));

describe('SMA and EMA', () => {
  // StockCharts ChartSchool, "Moving Averages - Simple and Exponential", spreadsheet cs-movavg.xls: 30 closes,
  // 10-day SMA and EMA (the EMA seeded with the first SMA).
  const closes = [
    22.2734, 22.194, 22.0847, 22.1741, 22.184, 22.1344, 22.2337, 22.4323, 22.2436, 22.2933, 22.1542, 22.3926, 22.3816,
    22.6109, 23.3558, 24.0519, 23.753, 23.8324, 23.9516, 23.6338, 23.8225, 23.8722, 23.6537, 23.187, 23.0976, 23.326,
    22.6805, 23.0976, 22.4025, 22.1725,
  ];

  it('10-day SMA', () => {
    const s = sma(closes, 10);
    expect(s.slice(0, 9).every((v) => v === null)).toBe(true);
    expect(cents(s, 9)).toEqual([
      22.22, 22.21, 22.23, 22.26, 22.31, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21, 23.38, 23.53, 23.65, 23.71, 23.69,
      23.61, 23.51, 23.43, 23.28, 23.13,
    ]);
  });

  it('10-day EMA', () => {
    const e = ema(closes, 10);
    expect(e.slice(0, 9).every((v) => v === null)).toBe(true);
    const expected = [
      22.22475, 22.21192273, 22.24477314, 22.26965075, 22.33169607, 22.51789678, 22.79680646, 22.97065983, 23.12733986,
      23.27720534, 23.34204073, 23.42939696, 23.50990661, 23.53605086, 23.47258707, 23.4044076, 23.39015167, 23.2611241,
      23.23139244, 23.08068473, 22.91556023,
    ];
    for (const [i, v] of expected.entries()) expect(e[9 + i]).toBeCloseTo(v, 7);
  });
});

describe('Bollinger Bands (20, 2)', () => {
  // StockCharts ChartSchool, "Bollinger Bands", spreadsheet cs-bollinger.xls: 42 closes, 20-day SMA and bands two
  // (population) standard deviations away. The table's own rounding differs from ours by a cent at most.
  const closes = [
    86.16, 89.09, 88.78, 90.32, 89.07, 91.15, 89.44, 89.18, 86.93, 87.68, 86.96, 89.43, 89.32, 88.72, 87.45, 87.26,
    89.5, 87.9, 89.13, 90.7, 92.9, 92.98, 91.8, 92.66, 92.68, 92.3, 92.77, 92.54, 92.95, 93.2, 91.07, 89.83, 89.74,
    90.4, 90.74, 88.02, 88.09, 88.84, 90.78, 90.54, 91.39, 90.65,
  ];
  const middle = [
    88.71, 89.05, 89.24, 89.39, 89.51, 89.69, 89.75, 89.91, 90.08, 90.38, 90.66, 90.86, 90.88, 90.9, 90.99, 91.15,
    91.19, 91.12, 91.17, 91.25, 91.24, 91.17, 91.05,
  ];
  const upper = [
    91.29, 91.95, 92.61, 92.93, 93.31, 93.73, 93.9, 94.26, 94.56, 94.79, 95.04, 94.91, 94.9, 94.89, 94.86, 94.67, 94.55,
    94.68, 94.57, 94.53, 94.53, 94.37, 94.15,
  ];
  const lower = [
    86.12, 86.14, 85.87, 85.85, 85.7, 85.65, 85.59, 85.56, 85.6, 85.98, 86.27, 86.82, 86.87, 86.91, 87.12, 87.63, 87.83,
    87.56, 87.76, 87.97, 87.95, 87.96, 87.95,
  ];

  it('matches the table to the cent', () => {
    const b = bollinger(closes, 20, 2);
    expect(b.upper.slice(0, 19).every((v) => v === null)).toBe(true);
    for (const [series, want] of [
      [b.middle, middle],
      [b.upper, upper],
      [b.lower, lower],
    ] as const)
      for (const [i, v] of want.entries()) expect(Math.abs((series[19 + i] as number) - v)).toBeLessThanOrEqual(0.0101);
    // The first window exactly: mean 88.7085, population deviation 1.29167.
    expect(b.middle[19]).toBeCloseTo(88.7085, 4);
    expect(b.upper[19]).toBeCloseTo(91.2919, 4);
  });
});

describe('RSI (14)', () => {
  // StockCharts ChartSchool, "Relative Strength Index (RSI)", spreadsheet cs-rsi.xls: 33 closes (as the sheet holds
  // them, to four decimals) and Wilder's RSI from the 15th on.
  const closes = [
    44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614,
    46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548,
    44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
  ];

  it('matches all 19 values of the table', () => {
    const r = rsi(closes, 14);
    expect(r.slice(0, 14).every((v) => v === null)).toBe(true);
    expect(cents(r, 14)).toEqual([
      70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46, 41.87, 45.46,
      37.3, 33.08, 37.77,
    ]);
  });

  it('reads 100 when nothing fell', () => {
    expect(rsi([1, 2, 3, 4, 5], 3).at(-1)).toBe(100);
  });
});

describe('MACD (12, 26, 9)', () => {
  // investexcel.net, "How to Calculate MACD in Excel": the worked example on Apple's closes, with the EMAs seeded
  // by SMAs as StockCharts does (MACD from the 26th close, the signal from the 34th).
  const closes = [
    459.99, 448.85, 446.06, 450.81, 442.8, 448.97, 444.57, 441.4, 430.47, 420.05, 431.14, 425.66, 430.58, 431.72,
    437.87, 428.43, 428.35, 432.5, 443.66, 455.72, 454.49, 452.08, 452.73, 461.91, 463.58, 461.14, 452.08, 442.66,
    428.91, 429.79, 431.99, 427.72, 423.2, 426.21, 426.98, 435.69, 434.33, 429.8, 419.85, 426.24,
  ];

  it('matches the worked values', () => {
    const m = macd(closes, 12, 26, 9);
    expect(ema(closes, 12)[11]).toBeCloseTo(440.8975, 6);
    expect(m.macd.slice(0, 25).every((v) => v === null)).toBe(true);
    expect(m.macd[25]).toBeCloseTo(8.275269504, 6);
    expect(m.macd[31]).toBeCloseTo(0.1029814912, 6);
    expect(m.signal.slice(0, 33).every((v) => v === null)).toBe(true);
    expect(m.signal[33]).toBeCloseTo(3.037525869, 6);
    expect(ema(closes, 26)[34]).toBeCloseTo(437.076259086, 6);
    expect(m.macd[34]).toBeCloseTo(-2.621842328, 6);
    expect(m.signal[34]).toBeCloseTo(1.905652229, 6);
    expect(m.histogram[34]).toBeCloseTo(-4.527494558, 6);
    expect(m.signal[39]).toBeCloseTo(-1.338100413, 6);
  });
});

describe('Stochastic (14, 1, 3)', () => {
  // StockCharts ChartSchool, "Stochastic Oscillator (Fast, Slow and Full)", spreadsheet cs-stoch.xls: %K(14) and its
  // 3-day SMA %D. The sheet gives closes from the 14th bar on; the first 13 are not used by %K.
  const high = [
    127.009, 127.6159, 126.5911, 127.3472, 128.173, 128.4317, 127.3671, 126.422, 126.8995, 126.8498, 125.646, 125.7156,
    127.1582, 127.7154, 127.6855, 128.2228, 128.2725, 128.0934, 128.2725, 127.7353, 128.77, 129.2873, 130.0633,
    129.1182, 129.2873, 128.4715, 128.0934, 128.6506, 129.1381, 128.6406,
  ];
  const low = [
    125.3574, 126.1633, 124.9296, 126.0937, 126.8199, 126.4817, 126.034, 124.8301, 126.3921, 125.7156, 124.5615,
    124.5715, 125.0689, 126.8597, 126.6309, 126.8001, 126.7105, 126.8001, 126.1335, 125.9245, 126.9891, 127.8148,
    128.4715, 128.0641, 127.6059, 127.596, 126.999, 126.8995, 127.4865, 127.397,
  ];
  const close = [
    ...low.slice(0, 13),
    127.2876,
    127.1781,
    128.0138,
    127.1085,
    127.7253,
    127.0587,
    127.3273,
    128.7103,
    127.8745,
    128.5809,
    128.6008,
    127.9342,
    128.1133,
    127.596,
    127.596,
    128.6904,
    128.2725,
  ];

  it('matches %K and %D of the table', () => {
    const s = stochastic(hlc(high, low, close), 14, 1, 3);
    expect(s.k.slice(0, 13).every((v) => v === null)).toBe(true);
    expect(cents(s.k, 13)).toEqual([
      70.44, 67.61, 89.2, 65.81, 81.75, 64.52, 74.53, 98.58, 70.1, 73.06, 73.42, 61.23, 60.96, 40.39, 40.39, 66.83,
      56.73,
    ]);
    expect(cents(s.d, 15)).toEqual([
      75.75, 74.21, 78.92, 70.69, 73.6, 79.21, 81.07, 80.58, 72.19, 69.24, 65.2, 54.19, 47.24, 49.2, 54.65,
    ]);
  });

  it('smooths %K for the slow stochastic, and reads 50 on a bar range of nothing', () => {
    const fast = stochastic(hlc(high, low, close), 14, 1, 3).k;
    const slow = stochastic(hlc(high, low, close), 14, 3, 3).k;
    expect(slow[15]).toBeCloseTo(((fast[13] as number) + (fast[14] as number) + (fast[15] as number)) / 3, 10);
    expect(slow[14]).toBeNull();
    expect(stochastic(hlc([5, 5], [5, 5], [5, 5]), 2, 1, 1).k[1]).toBe(50);
  });
});

describe('ATR (14)', () => {
  // StockCharts ChartSchool, "Average True Range (ATR)", spreadsheet cs-atr.xls: 30 bars, the first ATR the mean of
  // the first 14 true ranges (the first one high − low), then Wilder's smoothing.
  const high = [
    48.7, 48.72, 48.9, 48.87, 48.82, 49.05, 49.2, 49.35, 49.92, 50.19, 50.12, 49.66, 49.88, 50.19, 50.36, 50.57, 50.65,
    50.43, 49.63, 50.33, 50.29, 50.17, 49.32, 48.5, 48.32, 46.8, 47.8, 48.39, 48.66, 48.79,
  ];
  const low = [
    47.79, 48.14, 48.39, 48.37, 48.24, 48.635, 48.94, 48.86, 49.5, 49.87, 49.2, 48.9, 49.43, 49.725, 49.26, 50.09, 50.3,
    49.21, 48.98, 49.61, 49.2, 49.43, 48.08, 47.64, 41.55, 44.283, 47.31, 47.2, 47.9, 47.73,
  ];
  const close = [
    48.16, 48.61, 48.75, 48.63, 48.74, 49.03, 49.07, 49.32, 49.91, 50.13, 49.53, 49.5, 49.75, 50.03, 50.31, 50.52,
    50.41, 49.34, 49.37, 50.23, 49.238, 49.93, 48.43, 48.18, 46.57, 45.41, 47.77, 47.72, 48.62, 47.85,
  ];

  it('matches the table', () => {
    const a = atr(hlc(high, low, close), 14);
    expect(a.slice(0, 13).every((v) => v === null)).toBe(true);
    expect(cents(a, 13)).toEqual([
      0.56, 0.59, 0.59, 0.57, 0.62, 0.62, 0.64, 0.67, 0.69, 0.78, 0.78, 1.21, 1.3, 1.38, 1.37, 1.34, 1.32,
    ]);
  });
});

describe('short series', () => {
  it('give nulls, never NaN, when there are fewer bars than the period', () => {
    const few = [1, 2, 3];
    const bars = hlc(few, few, few);
    for (const s of [
      sma(few, 5),
      ema(few, 5),
      rsi(few, 5),
      bollinger(few, 5, 2).upper,
      macd(few, 2, 5, 2).macd,
      macd(few, 2, 5, 2).signal,
      stochastic(bars, 5, 3, 3).d,
      atr(bars, 5),
    ])
      expect(s).toEqual([null, null, null]);
  });
});
