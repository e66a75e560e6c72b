import { performance } from 'node:perf_hooks';
import { RiskEngine, type RiskAction } from '../apps/server/src/engine/risk-engine.ts';

/** The book of open positions the risk benchmarks share: a skewed universe, built the same way on every run. */

export const INSTRUMENTS = 60;
export const WALLETS = 100_000;
export const CONVERSIONS = 10;
/** Deterministic generator (mulberry32), so every run builds the same book. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Price levels of a realistic universe: majors, yen pairs, metals, crypto, stocks, minors.
export const BASES = [1.1, 150, 2350, 45_000, 180, 0.65];
export const DIGITS = [5, 3, 2, 2, 2, 5];
export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface Book {
  engine: RiskEngine;
  bids: Float64Array;
  asks: Float64Array;
  perInstrument: Int32Array;
  buildMs: number;
  /** Replaces a position the engine asked to close by a new one, as the order flow would (outside the timing). */
  churn(actions: readonly RiskAction[]): void;
}

export function build(positions: number): Book {
  const rand = rng(positions);
  const engine = new RiskEngine();
  const bids = new Float64Array(INSTRUMENTS);
  const asks = new Float64Array(INSTRUMENTS);
  for (let i = 0; i < INSTRUMENTS; i++) {
    const d = DIGITS[i % DIGITS.length];
    bids[i] = round(BASES[i % BASES.length] * (0.8 + 0.4 * rand()), d);
    asks[i] = round(bids[i] * 1.0002, d);
  }
  const rates = new Float64Array(CONVERSIONS).fill(1);
  for (let c = 1; c < CONVERSIONS; c++) engine.setConversion(c, (rates[c] = round(0.5 + rand() * 150, 4)));
  // Busy books are skewed: a few instruments carry most positions (weight 1 / rank^0.8).
  const cumulative = new Float64Array(INSTRUMENTS);
  let total = 0;
  for (let i = 0; i < INSTRUMENTS; i++) cumulative[i] = total += 1 / (i + 1) ** 0.8;
  const pick = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = INSTRUMENTS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  let nextOrder = 1;
  const instrumentOf = new Map<number, number>();
  /**
   * A position as a real book holds them: opened at various prices around the current one (±2 %), a notional of
   * 10k to 1M quote units at leverage 100, on 10 conversion rates, and on 30 % of them a take-profit and a stop-loss 0.05 % to 3 % away.
   */
  const open = (instrument: number) => {
    const d = DIGITS[instrument % DIGITS.length];
    const buy = rand() < 0.5;
    const mid = bids[instrument] * (0.98 + 0.04 * rand());
    const openRate = round(buy ? mid * 1.0002 : mid, d);
    const amount = Math.max(0.01, round((1e4 + rand() * 1e6) / openRate, 2));
    const convSlot = Math.floor(rand() * CONVERSIONS);
    const levels = rand() < 0.3;
    const away = () => 1 + (0.0005 + rand() * 0.03) * (buy ? 1 : -1);
    const orderId = nextOrder++;
    instrumentOf.set(orderId, instrument);
    engine.addPosition({
      orderId,
      walletId: 1 + Math.floor(rand() * WALLETS),
      instrument,
      side: buy ? 'buy' : 'sell',
      openRate,
      amount,
      spread: round(openRate * 0.0002, d) * amount,
      convSlot,
      margin: (openRate * amount) / 100 / rates[convSlot],
      takeProfit: levels ? round(openRate * away(), d) : null,
      stopLoss: levels ? round(openRate / away(), d) : null,
    });
  };

  const started = performance.now();
  for (let w = 0; w < WALLETS; w++)
    engine.upsertWallet(w + 1, { balance: 50_000 + rand() * 1e6, stopoutPercent: null });
  const perInstrument = new Int32Array(INSTRUMENTS);
  for (let k = 0; k < positions; k++) {
    const instrument = pick();
    perInstrument[instrument]++;
    open(instrument);
  }
  const buildMs = performance.now() - started;
  const churn = (actions: readonly RiskAction[]) => {
    for (const a of actions) {
      const instrument = instrumentOf.get(a.orderId) as number;
      instrumentOf.delete(a.orderId);
      engine.removePosition(a.orderId);
      open(instrument);
    }
  };
  churn(engine.sweep(bids, asks));
  return { engine, bids, asks, perInstrument, buildMs, churn };
}
