import { describe, expect, it } from 'vitest';
import { RiskEngine, type RiskAction, type RiskPosition } from './risk-engine.ts';

// Instrument 0: EUR/USD, instrument 1: USD/JPY; wallet 1 in USD with 10 000 and the default stop-out (50 %).
const EURUSD = 0;
const USDJPY = 1;

function engine(balance = 10_000): RiskEngine {
  const e = new RiskEngine();
  e.upsertWallet(1, { balance, stopoutPercent: null });
  return e;
}

let nextId = 100;
function position(p: Partial<RiskPosition> & Pick<RiskPosition, 'side' | 'openRate'>): RiskPosition {
  return {
    orderId: nextId++,
    walletId: 1,
    instrument: EURUSD,
    amount: 10_000,
    spread: 0,
    convSlot: 0,
    margin: 110,
    takeProfit: null,
    stopLoss: null,
    ...p,
  };
}

const brief = (actions: readonly RiskAction[]) => actions.map((a) => [a.orderId, a.reason, a.price]);

describe('take-profit and stop-loss', () => {
  it('a buy closes at the bid when it rises to its take-profit', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1, takeProfit: 1.105, stopLoss: 1.095 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.10499, 1.1051)).toEqual([]); // the ask above the level does not count for a buy
    expect(brief(e.tick(EURUSD, 1.105, 1.10502))).toEqual([[p.orderId, 'take_profit', 1.105]]);
  });

  it('a buy closes at the bid when it falls to its stop-loss', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1, takeProfit: 1.105, stopLoss: 1.095 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.09501, 1.09503)).toEqual([]);
    expect(brief(e.tick(EURUSD, 1.0949, 1.0951))).toEqual([[p.orderId, 'stop_loss', 1.0949]]);
  });

  it('a sell closes at the ask when it rises to its stop-loss', () => {
    const e = engine();
    const p = position({ side: 'sell', openRate: 1.1, takeProfit: 1.095, stopLoss: 1.105 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.10498, 1.10499)).toEqual([]);
    expect(brief(e.tick(EURUSD, 1.10498, 1.105))).toEqual([[p.orderId, 'stop_loss', 1.105]]);
  });

  it('a sell closes at the ask when it falls to its take-profit, not when only the bid does', () => {
    const e = engine();
    const p = position({ side: 'sell', openRate: 1.1, takeProfit: 1.095, stopLoss: 1.105 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.0949, 1.09501)).toEqual([]);
    expect(brief(e.tick(EURUSD, 1.09498, 1.095))).toEqual([[p.orderId, 'take_profit', 1.095]]);
  });

  it('a sell whose ask falls far below its stop-loss is not stopped (the reversed direction)', () => {
    const e = engine();
    e.addPosition(position({ side: 'sell', openRate: 1.1, stopLoss: 1.105 }));
    expect(e.tick(EURUSD, 1.05, 1.0501)).toEqual([]);
  });

  it('a tick of another instrument touches nothing', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1, takeProfit: 1.105, stopLoss: 1.095 });
    e.addPosition(p);
    e.tick(EURUSD, 1.1, 1.1001);
    const before = e.walletState(1);
    expect(e.tick(USDJPY, 1.0, 1.2)).toEqual([]);
    expect(e.walletState(1)).toEqual(before);
    expect(e.positionPl(p.orderId)).toBeCloseTo(0, 9);
  });

  it('a position returned once is closing and is not returned again until released', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1, takeProfit: 1.105 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.106, 1.1061)).toHaveLength(1);
    expect(e.isClosing(p.orderId)).toBe(true);
    expect(e.tick(EURUSD, 1.107, 1.1071)).toEqual([]);
    expect(e.releaseClosing(p.orderId)).toBe(true);
    expect(brief(e.tick(EURUSD, 1.107, 1.1071))).toEqual([[p.orderId, 'take_profit', 1.107]]);
  });

  it('setLevels replaces both levels and reports a level the last quote already reached', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1, takeProfit: 1.2, stopLoss: 1.0 });
    e.addPosition(p);
    expect(e.tick(EURUSD, 1.09, 1.0901)).toEqual([]);
    expect(e.setLevels(p.orderId, 1.15, null)).toBeNull();
    expect(e.tick(EURUSD, 0.9, 0.9001)).toEqual([]); // the stop-loss is gone
    expect(e.setLevels(p.orderId, null, 0.95)).toEqual({
      orderId: p.orderId,
      walletId: 1,
      reason: 'stop_loss',
      price: 0.9,
    });
    expect(e.isClosing(p.orderId)).toBe(true);
    expect(e.setLevels(999_999, 1, 1)).toBeNull();
  });
});

describe('profit and loss', () => {
  it('follows the spec formula with the conversion rate: sell USD/JPY 10 000 at 150, spread 200 JPY, ask 149.5 → 32', () => {
    const e = engine();
    e.setConversion(1, 150);
    const p = position({ side: 'sell', instrument: USDJPY, openRate: 150, spread: 200, convSlot: 1, margin: 100 });
    e.addPosition(p);
    expect(e.positionPl(p.orderId)).toBeCloseTo(-200 / 150, 9); // no quote yet: valued at the open rate
    e.tick(USDJPY, 149.48, 149.5);
    expect(e.positionPl(p.orderId)).toBeCloseTo(32, 9);
    expect(e.walletState(1)).toMatchObject({ balance: 10_000, margin: 100, positions: 1 });
    expect(e.walletState(1)?.equity).toBeCloseTo(10_032, 9);
    expect(e.walletState(1)?.marginLevel).toBeCloseTo(10_032, 6);
  });

  it('values a position of an instrument never quoted at its open rate, in the sweep too', () => {
    const e = engine();
    e.setConversion(2, 4);
    const p = position({ side: 'sell', instrument: USDJPY, openRate: 150, spread: 20, convSlot: 2, stopLoss: 150 });
    e.addPosition(p);
    expect(e.sweep()).toEqual([]); // no quote: the stop-loss at the open rate is not judged
    expect(e.positionPl(p.orderId)).toBeCloseTo(-5, 9); // −20 / 4
    expect(e.walletState(1)?.pl).toBeCloseTo(-5, 9);
  });

  it('starts from the last quote of the instrument', () => {
    const e = engine();
    e.tick(EURUSD, 1.1, 1.1002);
    const p = position({ side: 'buy', openRate: 1.1002, spread: 2 });
    e.addPosition(p);
    expect(e.positionPl(p.orderId)).toBeCloseTo(-4, 9); // 10 000 × (1.1 − 1.1002) − 2
  });

  it('rejects an unknown wallet, a duplicate order and a conversion slot without a rate', () => {
    const e = engine();
    const p = position({ side: 'buy', openRate: 1.1 });
    e.addPosition(p);
    expect(() => e.addPosition(p)).toThrow(/already tracked/);
    expect(() => e.addPosition(position({ side: 'buy', openRate: 1.1, walletId: 7 }))).toThrow(/wallet 7/);
    expect(() => e.addPosition(position({ side: 'buy', openRate: 1.1, convSlot: 3 }))).toThrow(/conversion slot 3/);
  });
});

describe('removal', () => {
  it('drops the position from its instrument and its wallet', () => {
    const e = engine();
    const a = position({ side: 'buy', openRate: 1.1, takeProfit: 1.105 });
    const b = position({ side: 'sell', openRate: 1.1, margin: 50 });
    e.addPosition(a);
    e.addPosition(b);
    expect(e.removePosition(a.orderId)).toBe(true);
    expect(e.removePosition(a.orderId)).toBe(false);
    expect(e.positionPl(a.orderId)).toBeNull();
    expect(e.tick(EURUSD, 1.2, 1.2001)).toEqual([]);
    expect(e.walletState(1)).toMatchObject({ margin: 50, positions: 1 });
    expect(e.removePosition(b.orderId)).toBe(true);
    expect(e.walletState(1)).toEqual({
      balance: 10_000,
      margin: 0,
      pl: 0,
      equity: 10_000,
      marginLevel: null,
      positions: 0,
    });
    expect(e.size).toBe(0);
  });

  it('keeps the other positions intact when a slot in the middle is removed', () => {
    const e = engine();
    const ps = [1.1, 1.2, 1.3, 1.4].map((tp) => position({ side: 'buy', openRate: 1.0, takeProfit: tp }));
    for (const p of ps) e.addPosition(p);
    e.removePosition(ps[1].orderId);
    expect(
      brief(e.tick(EURUSD, 1.35, 1.3501))
        .map((a) => a[0])
        .sort(),
    ).toEqual([ps[0].orderId, ps[2].orderId]);
    expect(e.positionPl(ps[3].orderId)).toBeCloseTo(3_500, 9);
  });
});

describe('stop-out', () => {
  // Balance 1 000; A buys 10 000, B buys 20 000 (margins 110 and 220), C sells 10 000: used margin 440, net long
  // 20 000, so the level reaches 50 % when the P/L sum reaches −780, a fall of 0.039.
  function book() {
    const e = engine(1_000);
    const a = position({ side: 'buy', openRate: 1.1, margin: 110 });
    const b = position({ side: 'buy', openRate: 1.1, amount: 20_000, margin: 220 });
    const c = position({ side: 'sell', openRate: 1.1, margin: 110 });
    for (const p of [a, b, c]) e.addPosition(p);
    return { e, a, b, c };
  }

  it('closes the worst position at the first tick at or below the stop-out level, once', () => {
    const { e, b } = book();
    expect(e.tick(EURUSD, 1.07, 1.07)).toEqual([]); // equity 400, level 90.9 %
    expect(e.walletState(1)?.marginLevel).toBeCloseTo(90.909, 3);
    expect(brief(e.tick(EURUSD, 1.06, 1.06))).toEqual([[b.orderId, 'stop_out', 1.06]]); // equity 200, level 45.5 %
    expect(e.tick(EURUSD, 1.05, 1.05)).toEqual([]); // one stop-out in flight per wallet
  });

  it('checkWallet after the close lands returns null once the wallet is safe', () => {
    const { e, b } = book();
    e.tick(EURUSD, 1.06, 1.06);
    e.removePosition(b.orderId);
    e.setWalletBalance(1, 200); // 1 000 − 800
    expect(e.checkWallet(1)).toBeNull(); // equity 200 on margin 220: 90.9 %
  });

  it('checkWallet after the close lands returns the next-worst while the wallet is still below', () => {
    const e = engine(1_000);
    const a = position({ side: 'buy', openRate: 1.1, margin: 110 });
    const b = position({ side: 'buy', openRate: 1.1, amount: 20_000, margin: 220 });
    e.addPosition(a);
    e.addPosition(b);
    expect(brief(e.tick(EURUSD, 1.06, 1.06))).toEqual([[b.orderId, 'stop_out', 1.06]]);
    expect(e.checkWallet(1)).toBeNull(); // B still in flight
    e.removePosition(b.orderId);
    e.setWalletBalance(1, 200);
    expect(e.checkWallet(1)).toEqual({ orderId: a.orderId, walletId: 1, reason: 'stop_out', price: 1.06 }); // equity −200
    e.removePosition(a.orderId);
    e.setWalletBalance(1, 0); // negative balance protection: never below zero
    expect(e.checkWallet(1)).toBeNull();
  });

  it('a released stop-out lets the wallet be evaluated again', () => {
    const { e, b } = book();
    e.tick(EURUSD, 1.06, 1.06);
    e.releaseClosing(b.orderId);
    expect(brief(e.tick(EURUSD, 1.06, 1.06))).toEqual([[b.orderId, 'stop_out', 1.06]]);
  });

  it('skips positions already closing for their take-profit or stop-loss', () => {
    const e = engine(1_000);
    const a = position({ side: 'buy', openRate: 1.1, margin: 110 });
    const b = position({ side: 'buy', openRate: 1.1, amount: 20_000, margin: 220, stopLoss: 1.07 });
    e.addPosition(a);
    e.addPosition(b);
    const actions = brief(e.tick(EURUSD, 1.06, 1.06));
    expect(actions).toEqual([
      [b.orderId, 'stop_loss', 1.06],
      [a.orderId, 'stop_out', 1.06],
    ]);
  });

  it('closes at a margin level exactly at the stop-out although the doubles land a hair above it', () => {
    const e = engine(1_000);
    const a = position({ side: 'buy', openRate: 1, margin: 826 });
    e.addPosition(a);
    // P/L 10 000 × (0.9413 − 1) = −587 in decimal, −586.9999999999998 in doubles; equity 413 = 50 % of 826.
    expect(e.tick(EURUSD, 0.9414, 0.9414)).toEqual([]);
    expect(e.walletState(1)?.marginLevel).toBeGreaterThan(50);
    expect(brief(e.tick(EURUSD, 0.9413, 0.9413))).toEqual([[a.orderId, 'stop_out', 0.9413]]);
  });

  it('uses the wallet stop-out percent', () => {
    const e = new RiskEngine();
    e.upsertWallet(1, { balance: 1_000, stopoutPercent: 100 });
    const a = position({ side: 'buy', openRate: 1.1, margin: 500 });
    e.addPosition(a);
    expect(e.tick(EURUSD, 1.06, 1.06)).toEqual([]); // equity 600: 120 %
    expect(brief(e.tick(EURUSD, 1.0499, 1.0499))).toEqual([[a.orderId, 'stop_out', 1.0499]]); // 99.8 %
  });

  it('sweep finds the same figures and actions as the ticks', () => {
    const { e, b } = book();
    e.tick(EURUSD, 1.07, 1.07);
    const before = e.walletState(1);
    expect(e.sweep()).toEqual([]);
    const after = e.walletState(1);
    expect(after?.pl).toBeCloseTo(before?.pl ?? NaN, 9);
    expect(after?.margin).toBeCloseTo(440, 9);
    const bids = new Float64Array([1.06]);
    expect(brief(e.sweep(bids, bids))).toEqual([[b.orderId, 'stop_out', 1.06]]);
  });
});
