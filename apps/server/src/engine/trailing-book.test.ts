import { describe, expect, it } from 'vitest';
import { Decimal } from '@platform/domain';
import { RiskEngine } from './risk-engine.ts';
import { TrailingBook, trailingTrigger } from './trailing-book.ts';

/** Deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('trailingTrigger', () => {
  it('is the exact decimal threshold of a move, in both directions and at the step boundary', () => {
    // Buy: moves once bid − 0.002 ≥ 1.098 + 0.0005, i.e. bid ≥ 1.1005.
    const buy = trailingTrigger('buy', '1.098', '0.002', '0.0005');
    expect(1.1005 >= buy).toBe(true);
    expect(1.10049 >= buy).toBe(false);
    // Step 0 still needs a strictly better stop: one hundred-millionth above.
    const flat = trailingTrigger('buy', '1.098', '0.002', '0');
    expect(1.1 >= flat).toBe(false);
    expect(1.10000001 >= flat).toBe(true);
    // Without a stop-loss a buy moves once bid − distance is above zero; a sell at once.
    expect(trailingTrigger('buy', null, '0.002', '0')).toBe(0.00200001);
    expect(trailingTrigger('sell', null, '0.002', '0')).toBe(Number.POSITIVE_INFINITY);
    // Sell: moves once ask + 0.003 ≤ 1.1032 − 0.0001, i.e. ask ≤ 1.1001.
    const sell = trailingTrigger('sell', '1.1032', '0.003', '0.0001');
    expect(1.1001 <= sell).toBe(true);
    expect(1.10011 <= sell).toBe(false);
  });

  it('agrees with the decimal rule for random levels, distances, steps and prices', () => {
    const rand = rng(7);
    const d = (x: number) => new Decimal(x.toFixed(5));
    for (let i = 0; i < 20_000; i++) {
      const sl = d(0.5 + rand());
      const distance = d(0.00001 + rand() * 0.01);
      const step = rand() < 0.3 ? new Decimal(0) : d(rand() * 0.005);
      const price = d(0.5 + rand() * 1.02);
      const buyMoves = price.minus(distance).gt(sl) && price.minus(distance).gte(sl.plus(step));
      const buy = trailingTrigger('buy', sl.toString(), distance.toString(), step.toString());
      expect(Number(price.toString()) >= buy).toBe(buyMoves);
      const sellMoves = price.plus(distance).lt(sl) && price.plus(distance).lte(sl.minus(step));
      const sell = trailingTrigger('sell', sl.toString(), distance.toString(), step.toString());
      expect(Number(price.toString()) <= sell).toBe(sellMoves);
    }
  });
});

describe('TrailingBook', () => {
  it('pops exactly what a scan of every stop would move, for any sequence of sets, removes and ticks', () => {
    const rand = rng(11);
    const book = new TrailingBook();
    const model = new Map<number, { instrument: number; sign: 1 | -1; trigger: number }>();
    for (let step = 0; step < 30_000; step++) {
      const r = rand();
      const id = Math.floor(rand() * 500);
      if (r < 0.5) {
        const e = {
          instrument: Math.floor(rand() * 4),
          sign: (rand() < 0.5 ? 1 : -1) as 1 | -1,
          trigger: rand() < 0.05 ? Number.POSITIVE_INFINITY : 1 + Math.round(rand() * 1000) / 10_000,
        };
        book.set(id, e.instrument, e.sign, e.trigger);
        model.set(id, e);
      } else if (r < 0.65) {
        expect(book.remove(id)).toBe(model.delete(id));
      } else {
        const instrument = Math.floor(rand() * 4);
        const bid = 1 + Math.round(rand() * 1000) / 10_000;
        const ask = bid + 0.0002;
        const out: number[] = [];
        book.reached(instrument, bid, ask, out);
        const expected = [...model]
          .filter(([, e]) => e.instrument === instrument && (e.sign > 0 ? bid >= e.trigger : ask <= e.trigger))
          .map(([k]) => k);
        expect(out.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
        for (const k of expected) model.delete(k);
      }
      expect(book.size).toBe(model.size);
    }
  });
});

describe('RiskEngine trailing stops and resizing', () => {
  it('returns the positions a tick moves, forgets closed ones, and revalues a resized position', () => {
    const engine = new RiskEngine();
    engine.upsertWallet(1, { balance: 10_000, stopoutPercent: null });
    const position = {
      walletId: 1,
      instrument: 0,
      openRate: 1.1,
      amount: 10_000,
      spread: 2,
      convSlot: 0,
      margin: 110,
      takeProfit: null,
      stopLoss: null,
    };
    engine.addPosition({ ...position, orderId: 1, side: 'buy' });
    engine.addPosition({ ...position, orderId: 2, side: 'sell' });
    engine.setTrailing(1, trailingTrigger('buy', '1.098', '0.002', '0'));
    engine.setTrailing(2, trailingTrigger('sell', '1.1022', '0.002', '0'));
    expect(engine.trailingSize).toBe(2);
    engine.tick(0, 1.1, 1.1002);
    expect(engine.trail(0, 1.1, 1.1002)).toEqual([]);
    expect(engine.trail(0, 1.1001, 1.1003)).toEqual([1]);
    expect(engine.trailingSize).toBe(1);
    expect(engine.trail(0, 1.0995, 1.0997)).toEqual([2]);
    engine.setTrailing(1, trailingTrigger('buy', '1.0981', '0.002', '0'));
    engine.removePosition(1);
    expect(engine.trailingSize).toBe(0);
    expect(engine.setTrailing(1, 1)).toBe(false);

    engine.tick(0, 1.105, 1.1052);
    // The sell: (1.1 − 1.1052) × 10000 − 2 = −54; cut to 4000 with 0.8 of spread: −21.6.
    expect(engine.positionPl(2)).toBeCloseTo(-54, 8);
    engine.resizePosition(2, { amount: 4000, spread: 0.8, margin: 44 });
    expect(engine.positionPl(2)).toBeCloseTo(-21.6, 8);
    expect(engine.walletState(1)).toMatchObject({ margin: 44, positions: 1 });
    expect(engine.walletState(1)?.pl).toBeCloseTo(-21.6, 8);
  });
});
