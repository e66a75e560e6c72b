/**
 * Indicator formulas over whole series, as the chart draws them: each returns one value per input bar, null until
 * the indicator has enough bars. The conventions are StockCharts ChartSchool's (the reference values of the tests):
 * an EMA starts from the SMA of its first period, RSI and ATR use Wilder's smoothing, Bollinger Bands the
 * population standard deviation, the stochastic %K its raw value smoothed by an SMA.
 */

export type Series = (number | null)[];

export interface Hlc {
  high: number;
  low: number;
  close: number;
}

const empty = (n: number): Series => new Array<number | null>(n).fill(null);

/** Simple moving average of the last `period` values. */
export function sma(values: readonly number[], period: number): Series {
  const out = empty(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= period) sum -= values[i - period];
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/** Exponential moving average (k = 2 / (period + 1)), seeded with the SMA of the first `period` values. */
export function ema(values: readonly number[], period: number): Series {
  const out = empty(values.length);
  if (values.length < period) return out;
  const k = 2 / (period + 1);
  let prev = 0;
  for (let i = 0; i < period; i++) prev += values[i] / period;
  out[period - 1] = prev;
  for (let i = period; i < values.length; i++) {
    prev = (values[i] - prev) * k + prev;
    out[i] = prev;
  }
  return out;
}

/** An EMA of a series that starts later (its nulls skipped), aligned back to the series. */
function emaOfDefined(series: Series, period: number): Series {
  const first = series.findIndex((v) => v !== null);
  if (first < 0) return empty(series.length);
  const tail = ema(series.slice(first) as number[], period);
  return [...empty(first), ...tail];
}

/** An SMA of a series that starts later (its nulls skipped), aligned back to the series. */
function smaOfDefined(series: Series, period: number): Series {
  const first = series.findIndex((v) => v !== null);
  if (first < 0) return empty(series.length);
  return [...empty(first), ...sma(series.slice(first) as number[], period)];
}

export interface Bands {
  middle: Series;
  upper: Series;
  lower: Series;
}

/** Bollinger Bands: the SMA, and `mult` population standard deviations of the same window above and below it. */
export function bollinger(values: readonly number[], period: number, mult: number): Bands {
  const middle = sma(values, period);
  const upper = empty(values.length);
  const lower = empty(values.length);
  for (let i = period - 1; i < values.length; i++) {
    const mean = middle[i] as number;
    let sq = 0;
    for (let j = i - period + 1; j <= i; j++) sq += (values[j] - mean) ** 2;
    const sd = Math.sqrt(sq / period);
    upper[i] = mean + mult * sd;
    lower[i] = mean - mult * sd;
  }
  return { middle, upper, lower };
}

/**
 * Wilder's RSI: the first average gain and loss are simple averages of the first `period` changes, the next ones
 * (previous × (period − 1) + current) / period. 100 when nothing fell in the window.
 */
export function rsi(values: readonly number[], period: number): Series {
  const out = empty(values.length);
  if (values.length <= period) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const change = values[i] - values[i - 1];
    if (change > 0) gain += change / period;
    else loss -= change / period;
  }
  const value = () => (loss === 0 ? 100 : 100 - 100 / (1 + gain / loss));
  out[period] = value();
  for (let i = period + 1; i < values.length; i++) {
    const change = values[i] - values[i - 1];
    gain = (gain * (period - 1) + Math.max(change, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
    out[i] = value();
  }
  return out;
}

export interface Macd {
  macd: Series;
  signal: Series;
  histogram: Series;
}

/** MACD: EMA(fast) − EMA(slow), its EMA(signal) as the signal line, and their difference as the histogram. */
export function macd(values: readonly number[], fast: number, slow: number, signal: number): Macd {
  const f = ema(values, fast);
  const s = ema(values, slow);
  const line: Series = f.map((v, i) => (v === null || s[i] === null ? null : v - (s[i] as number)));
  const sig = emaOfDefined(line, signal);
  const histogram: Series = line.map((v, i) => (v === null || sig[i] === null ? null : v - (sig[i] as number)));
  return { macd: line, signal: sig, histogram };
}

export interface Stochastic {
  k: Series;
  d: Series;
}

/**
 * Stochastic oscillator: raw %K = 100 × (close − lowest low) / (highest high − lowest low) over `kPeriod` bars,
 * %K its SMA over `kSmooth` bars (1: the fast stochastic), %D the SMA of %K over `dPeriod`. A window with no range
 * reads 50.
 */
export function stochastic(bars: readonly Hlc[], kPeriod: number, kSmooth: number, dPeriod: number): Stochastic {
  const raw = empty(bars.length);
  for (let i = kPeriod - 1; i < bars.length; i++) {
    let hh = Number.NEGATIVE_INFINITY;
    let ll = Number.POSITIVE_INFINITY;
    for (let j = i - kPeriod + 1; j <= i; j++) {
      hh = Math.max(hh, bars[j].high);
      ll = Math.min(ll, bars[j].low);
    }
    raw[i] = hh === ll ? 50 : (100 * (bars[i].close - ll)) / (hh - ll);
  }
  const k = kSmooth > 1 ? smaOfDefined(raw, kSmooth) : raw;
  return { k, d: smaOfDefined(k, dPeriod) };
}

/**
 * Wilder's average true range: the true range is the largest of high − low, |high − previous close| and
 * |low − previous close| (the first bar: high − low); the first ATR averages the first `period` of them.
 */
export function atr(bars: readonly Hlc[], period: number): Series {
  const out = empty(bars.length);
  if (bars.length < period) return out;
  const tr = bars.map((b, i) =>
    i === 0
      ? b.high - b.low
      : Math.max(b.high - b.low, Math.abs(b.high - bars[i - 1].close), Math.abs(b.low - bars[i - 1].close)),
  );
  let prev = 0;
  for (let i = 0; i < period; i++) prev += tr[i] / period;
  out[period - 1] = prev;
  for (let i = period; i < bars.length; i++) {
    prev = (prev * (period - 1) + tr[i]) / period;
    out[i] = prev;
  }
  return out;
}
