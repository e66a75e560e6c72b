import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Decimal,
  profitLoss,
  requiredMargin,
  resolveStopout,
  spreadCost,
  triggeredExit,
  type Side,
} from '@platform/domain';
import { RiskEngine, type RiskAction } from './risk-engine.ts';

/**
 * The engine against a naive reference in decimal: the reference recomputes every figure from scratch with the
 * domain's formulas, the engine keeps them incrementally in doubles. Random scenarios mix ticks (random walks),
 * new positions, user closes, landed or failed closes of returned actions, level changes, conversion-rate changes and
 * balance changes, and play the risk service's part (a close lands: remove the position, book its P/L with negative
 * balance protection, checkWallet).
 */

// Prices are whole points of the instrument's last digit, as the price book's rounded numbers are.
const INSTRUMENTS = [
  { digits: 5, base: 110_000 }, // 1.10000
  { digits: 3, base: 150_000 }, // 150.000
  { digits: 2, base: 235_000 }, // 2350.00
];
const AMOUNTS = ['0.5', '2', '10', '1000', '10000', '25000'];
const LEVERAGES = [10, 100, 500];
const CONVERSIONS = ['1.25', '0.8', '150.5', '3.6725'];
const STOPOUTS = [null, 20, 50, 100];
const WALLETS = 3;

const priceText = (i: number, points: number) =>
  new Decimal(points).div(10 ** INSTRUMENTS[i].digits).toFixed(INSTRUMENTS[i].digits);

type Op =
  | { t: 'tick'; i: number; move: number; spread: number }
  | {
      t: 'add';
      w: number;
      i: number;
      side: Side;
      amount: number;
      leverage: number;
      spreadSetting: number;
      conv: number;
      tp: number | null;
      sl: number | null;
    }
  | { t: 'close'; k: number }
  | { t: 'land'; k: number; ok: boolean }
  | { t: 'levels'; k: number; tp: number | null; sl: number | null }
  | { t: 'conversion'; rate: number }
  | { t: 'balance'; w: number; cents: number };

interface Scenario {
  wallets: { balance: number; stopout: number }[];
  conversion: number;
  ops: Op[];
}

const offset = fc.option(fc.integer({ min: 0, max: 600 }), { nil: null, freq: 3 });

function scenario(drift: number, maxMove: number): fc.Arbitrary<Scenario> {
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        t: fc.constant('tick' as const),
        i: fc.nat(INSTRUMENTS.length - 1),
        move: fc.integer({ min: -maxMove - drift, max: maxMove - drift }),
        spread: fc.integer({ min: 0, max: 30 }),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant('add' as const),
        w: fc.nat(WALLETS - 1),
        i: fc.nat(INSTRUMENTS.length - 1),
        side: fc.constantFrom<Side>('buy', 'sell'),
        amount: fc.nat(AMOUNTS.length - 1),
        leverage: fc.nat(LEVERAGES.length - 1),
        spreadSetting: fc.integer({ min: 0, max: 3 }),
        conv: fc.nat(1),
        tp: offset,
        sl: offset,
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const), k: fc.nat(50) }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('land' as const), k: fc.nat(50), ok: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('levels' as const), k: fc.nat(50), tp: offset, sl: offset }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('conversion' as const), rate: fc.nat(CONVERSIONS.length - 1) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('balance' as const),
        w: fc.nat(WALLETS - 1),
        cents: fc.integer({ min: -50_000, max: 50_000 }),
      }),
    },
  );
  return fc.record({
    wallets: fc.array(
      fc.record({ balance: fc.integer({ min: 0, max: 500_000 }), stopout: fc.nat(STOPOUTS.length - 1) }),
      {
        minLength: WALLETS,
        maxLength: WALLETS,
      },
    ),
    conversion: fc.nat(CONVERSIONS.length - 1),
    ops: fc.array(op, { minLength: 10, maxLength: 80, size: 'max' }),
  });
}

interface RefPosition {
  orderId: number;
  walletId: number;
  instrument: number;
  side: Side;
  openRate: string;
  amount: string;
  spread: Decimal;
  convSlot: number;
  margin: string;
  takeProfit: string | null;
  stopLoss: string | null;
  /** P/L as of the last evaluation of the position (its instrument's tick, its opening, the sweep). */
  pl: Decimal;
  closing: 'no' | 'exit' | 'stop_out';
}

interface RefWallet {
  balance: Decimal;
  stopout: number;
}

/** Everything in decimal, recomputed from scratch whenever asked. */
class Reference {
  readonly positions: RefPosition[] = [];
  readonly wallets = new Map<number, RefWallet>();
  readonly quotes: ({ bid: string; ask: string } | null)[] = INSTRUMENTS.map(() => null);
  readonly conversion: string[] = ['1', '1'];

  /** P/L at the instrument's last quote (the open rate before any) with the current conversion rate. */
  evaluate(p: RefPosition): Decimal {
    const q = this.quotes[p.instrument];
    const closeRate = q ? (p.side === 'buy' ? q.bid : q.ask) : p.openRate;
    return profitLoss({ ...p, closeRate, conversionRate: this.conversion[p.convSlot] });
  }

  of(walletId: number): RefPosition[] {
    return this.positions.filter((p) => p.walletId === walletId);
  }

  /** Used margin, P/L sum, whether the wallet is at or below its stop-out, and whether that is too close to call. */
  figures(walletId: number) {
    const w = this.wallets.get(walletId) as RefWallet;
    const ps = this.of(walletId);
    const margin = ps.reduce((s, p) => s.plus(p.margin), new Decimal(0));
    const pl = ps.reduce((s, p) => s.plus(p.pl), new Decimal(0));
    const equity = w.balance.plus(pl);
    // Equity × 100 against stopout × margin is the margin-level test without the division.
    const gap = equity.times(100).minus(margin.times(w.stopout));
    const below = margin.gt(0) && (equity.lte(0) || gap.lte(0));
    // The doubles carry errors of ~1e-16 of the terms summed, a little more after many incremental updates;
    // 1e-12 of them is far beyond that and far below any amount that matters.
    let terms = Math.abs(w.balance.toNumber()) + margin.toNumber() + 1;
    for (const p of ps)
      terms += Math.abs((Number(p.amount) * Number(p.openRate)) / Number(this.conversion[p.convSlot]));
    const scale = terms * 1e-12;
    // The engine closes exact ties and may close up to a billionth of the level early (TIE in the engine), plus
    // the rounding of the doubles: a gap that small above the level may go either way. At or below it must close.
    const band = scale * (100 + w.stopout) + margin.toNumber() * w.stopout * 2e-9;
    const ambiguous = margin.gt(0) && gap.gt(0) && gap.toNumber() <= band;
    return { margin, pl, equity, below, ambiguous, scale };
  }
}

type Check = 'state' | 'stopout' | 'margin' | 'exits';

/** Plays one scenario on the engine and the reference side by side, asserting the checks asked for at every step. */
function play(sc: Scenario, checks: ReadonlySet<Check>): { stopouts: number; exits: number } {
  const engine = new RiskEngine();
  const ref = new Reference();
  const mid = INSTRUMENTS.map((x) => x.base);
  // Spread before the first tick too, so positions opened before any quote carry a spread cost.
  const spread = INSTRUMENTS.map(() => 5);
  let nextOrder = 1;
  let stopouts = 0;
  let exits = 0;

  engine.setConversion(1, Number(CONVERSIONS[sc.conversion]));
  ref.conversion[1] = CONVERSIONS[sc.conversion];
  sc.wallets.forEach((w, id) => {
    const balance = new Decimal(w.balance).div(100);
    ref.wallets.set(id, { balance, stopout: resolveStopout(STOPOUTS[w.stopout]) });
    engine.upsertWallet(id, { balance: balance.toNumber(), stopoutPercent: STOPOUTS[w.stopout] });
  });

  // A plain comparison (expect() per figure would dominate the run time); the message names the figure.
  const near = (what: string, a: number, b: Decimal, tolerance: number) => {
    if (!(Math.abs(a - b.toNumber()) <= tolerance)) throw new Error(`${what}: engine ${a}, reference ${b.toString()}`);
  };

  /** A stop-out action (or its absence) for one evaluated wallet, against the reference decision. */
  const judgeStopout = (walletId: number, got: RiskAction | undefined) => {
    const open = ref.of(walletId).filter((p) => p.closing === 'no');
    const inFlight = ref.of(walletId).some((p) => p.closing === 'stop_out');
    const f = ref.figures(walletId);
    if (checks.has('stopout')) {
      // One stop-out in flight per wallet, and only open positions can be picked.
      if (inFlight || open.length === 0) expect(got, `wallet ${walletId} has nothing to stop out`).toBeUndefined();
      else if (!f.ambiguous) expect(got !== undefined, `wallet ${walletId} stop-out decision`).toBe(f.below);
      if (got) {
        // The worst open position; ties within rounding may go either way.
        const worst = Decimal.min(...open.map((p) => p.pl));
        const pick = open.find((p) => p.orderId === got.orderId);
        expect(pick, 'stop-out of an open position of the wallet').toBeDefined();
        expect(pick?.pl.minus(worst).lte(f.scale), 'stop-out of the worst position').toBe(true);
      }
    }
    if (got) {
      const p = ref.positions.find((x) => x.orderId === got.orderId) as RefPosition;
      p.closing = 'stop_out';
      stopouts++;
    }
  };

  /** The service's part after a close lands: book the P/L (never below zero), tell the engine, re-check. */
  const landClose = (p: RefPosition) => {
    const w = ref.wallets.get(p.walletId) as RefWallet;
    w.balance = Decimal.max(0, w.balance.plus(p.pl));
    ref.positions.splice(ref.positions.indexOf(p), 1);
    expect(engine.removePosition(p.orderId)).toBe(true);
    engine.setWalletBalance(p.walletId, w.balance.toNumber());
    judgeStopout(p.walletId, engine.checkWallet(p.walletId) ?? undefined);
  };

  const compareState = () => {
    if (!checks.has('margin') && !checks.has('state')) return;
    for (const [id] of ref.wallets) {
      const f = ref.figures(id);
      const s = engine.walletState(id);
      if (!s) throw new Error(`wallet ${id} missing`);
      if (checks.has('margin')) {
        near(`wallet ${id} margin`, s.margin, f.margin, f.scale);
        if (s.positions !== ref.of(id).length) throw new Error(`wallet ${id}: ${s.positions} positions`);
        if (s.positions === 0 && s.margin !== 0) throw new Error(`wallet ${id}: margin ${s.margin} without positions`);
      }
      if (checks.has('state')) {
        near(`wallet ${id} P/L`, s.pl, f.pl, f.scale);
        near(`wallet ${id} equity`, s.equity, f.equity, f.scale);
        near(`wallet ${id} balance`, s.balance, ref.wallets.get(id)?.balance ?? new Decimal(NaN), f.scale);
        for (const p of ref.of(id)) near(`order ${p.orderId} P/L`, engine.positionPl(p.orderId) ?? NaN, p.pl, f.scale);
      }
    }
  };

  for (const op of sc.ops) {
    switch (op.t) {
      case 'tick': {
        mid[op.i] = Math.max(10, mid[op.i] + op.move);
        spread[op.i] = op.spread;
        const q = { bid: priceText(op.i, mid[op.i]), ask: priceText(op.i, mid[op.i] + op.spread) };
        ref.quotes[op.i] = q;
        const actions = engine.tick(op.i, Number(q.bid), Number(q.ask));
        const mine = ref.positions.filter((p) => p.instrument === op.i);
        for (const p of mine) p.pl = ref.evaluate(p);

        const gotExits = actions.filter((a) => a.reason !== 'stop_out');
        if (checks.has('exits')) {
          const want = mine
            .filter((p) => p.closing === 'no')
            .flatMap((p) => {
              const r = triggeredExit(p.side, q, { takeProfit: p.takeProfit, stopLoss: p.stopLoss });
              return r
                ? [
                    {
                      orderId: p.orderId,
                      walletId: p.walletId,
                      reason: r,
                      price: Number(p.side === 'buy' ? q.bid : q.ask),
                    },
                  ]
                : [];
            });
          const byId = (a: { orderId: number }, b: { orderId: number }) => a.orderId - b.orderId;
          expect([...gotExits].sort(byId)).toEqual(want.sort(byId));
        }
        for (const a of gotExits) {
          (ref.positions.find((p) => p.orderId === a.orderId) as RefPosition).closing = 'exit';
          exits++;
        }

        const stop = actions.filter((a) => a.reason === 'stop_out');
        const touched = [...new Set(mine.map((p) => p.walletId))];
        for (const a of stop) expect(touched).toContain(a.walletId);
        expect(new Set(stop.map((a) => a.walletId)).size).toBe(stop.length);
        for (const w of touched)
          judgeStopout(
            w,
            stop.find((a) => a.walletId === w),
          );
        break;
      }
      case 'add': {
        const q = ref.quotes[op.i] ?? {
          bid: priceText(op.i, mid[op.i]),
          ask: priceText(op.i, mid[op.i] + spread[op.i]),
        };
        const openRate = op.side === 'buy' ? q.ask : q.bid;
        const amount = AMOUNTS[op.amount];
        const conv = ref.conversion[op.conv];
        const margin = Decimal.max(
          '0.01',
          requiredMargin({
            price: openRate,
            amount,
            leverage: LEVERAGES[op.leverage],
            conversionRate: conv,
          }).toDecimalPlaces(2),
        ).toFixed(2);
        const dir = op.side === 'buy' ? 1 : -1;
        const openPts = new Decimal(openRate).times(10 ** INSTRUMENTS[op.i].digits).toNumber();
        const level = (off: number | null, sign: number) =>
          off === null ? null : priceText(op.i, Math.max(1, openPts + sign * dir * off));
        const p: RefPosition = {
          orderId: nextOrder++,
          walletId: op.w,
          instrument: op.i,
          side: op.side,
          openRate,
          amount,
          spread: spreadCost({ ask: q.ask, bid: q.bid, spreadSetting: op.spreadSetting, amount }),
          convSlot: op.conv,
          margin,
          takeProfit: level(op.tp, 1),
          stopLoss: level(op.sl, -1),
          pl: new Decimal(0),
          closing: 'no',
        };
        p.pl = ref.evaluate(p);
        ref.positions.push(p);
        engine.addPosition({
          orderId: p.orderId,
          walletId: p.walletId,
          instrument: p.instrument,
          side: p.side,
          openRate: Number(openRate),
          amount: Number(amount),
          spread: p.spread.toNumber(),
          convSlot: p.convSlot,
          margin: Number(margin),
          takeProfit: p.takeProfit === null ? null : Number(p.takeProfit),
          stopLoss: p.stopLoss === null ? null : Number(p.stopLoss),
        });
        // The order service re-checks the wallet after an opening.
        judgeStopout(p.walletId, engine.checkWallet(p.walletId) ?? undefined);
        break;
      }
      case 'close': {
        // The user closes an open position (any state but closing).
        const open = ref.positions.filter((p) => p.closing === 'no');
        if (open.length > 0) landClose(open[op.k % open.length]);
        break;
      }
      case 'land': {
        const closing = ref.positions.filter((p) => p.closing !== 'no');
        if (closing.length === 0) break;
        const p = closing[op.k % closing.length];
        if (op.ok) landClose(p);
        else {
          engine.releaseClosing(p.orderId);
          p.closing = 'no';
        }
        break;
      }
      case 'levels': {
        if (ref.positions.length === 0) break;
        const p = ref.positions[op.k % ref.positions.length];
        const openPts = new Decimal(p.openRate).times(10 ** INSTRUMENTS[p.instrument].digits).toNumber();
        const dir = p.side === 'buy' ? 1 : -1;
        p.takeProfit = op.tp === null ? null : priceText(p.instrument, Math.max(1, openPts + dir * op.tp));
        p.stopLoss = op.sl === null ? null : priceText(p.instrument, Math.max(1, openPts - dir * op.sl));
        const got = engine.setLevels(
          p.orderId,
          p.takeProfit === null ? null : Number(p.takeProfit),
          p.stopLoss === null ? null : Number(p.stopLoss),
        );
        const q = ref.quotes[p.instrument];
        const r =
          q && p.closing === 'no' ? triggeredExit(p.side, q, { takeProfit: p.takeProfit, stopLoss: p.stopLoss }) : null;
        if (checks.has('exits')) expect(got?.reason ?? null).toBe(r);
        if (got) {
          p.closing = 'exit';
          exits++;
        }
        break;
      }
      case 'conversion': {
        // Positions pick the new rate up at their instrument's next tick (or the sweep), in both models.
        engine.setConversion(1, Number(CONVERSIONS[op.rate]));
        ref.conversion[1] = CONVERSIONS[op.rate];
        break;
      }
      case 'balance': {
        const w = ref.wallets.get(op.w) as RefWallet;
        w.balance = Decimal.max(0, w.balance.plus(new Decimal(op.cents).div(100)));
        engine.setWalletBalance(op.w, w.balance.toNumber());
        judgeStopout(op.w, engine.checkWallet(op.w) ?? undefined);
        break;
      }
    }
    compareState();
  }

  // The sweep: every position re-evaluated with the current conversion rates, every wallet checked.
  const swept = engine.sweep();
  for (const p of ref.positions) p.pl = ref.evaluate(p);
  const sweptExits = swept.filter((a) => a.reason !== 'stop_out');
  if (checks.has('exits')) {
    const want = ref.positions.flatMap((p) => {
      const q = ref.quotes[p.instrument];
      const r =
        q && p.closing === 'no' ? triggeredExit(p.side, q, { takeProfit: p.takeProfit, stopLoss: p.stopLoss }) : null;
      return r ? [p.orderId] : [];
    });
    expect(sweptExits.map((a) => a.orderId).sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
  }
  for (const a of sweptExits) (ref.positions.find((p) => p.orderId === a.orderId) as RefPosition).closing = 'exit';
  for (const [id] of ref.wallets)
    judgeStopout(
      id,
      swept.find((a) => a.reason === 'stop_out' && a.walletId === id),
    );
  compareState();
  return { stopouts, exits };
}

const RUNS = Number(process.env.RUNS ?? 300);

describe('risk engine against a decimal reference', () => {
  it('(1) incremental P/L, equity and balances equal a from-scratch decimal recomputation, also after a sweep', () => {
    fc.assert(
      fc.property(scenario(0, 300), (sc) => void play(sc, new Set<Check>(['state']))),
      { numRuns: RUNS },
    );
  });

  it('(2) stop-out fires at the first evaluation at or below the level (or equity ≤ 0), never earlier', () => {
    // Adverse drift for longs so wallets do cross their levels; the statistics guard that they actually do.
    let stopouts = 0;
    fc.assert(
      fc.property(scenario(60, 250), (sc) => {
        stopouts += play(sc, new Set<Check>(['stopout'])).stopouts;
      }),
      { numRuns: RUNS },
    );
    console.log('STOPOUTS', stopouts);
    expect(stopouts).toBeGreaterThan(RUNS);
  });

  it('(3) wallet used margin always equals the sum of its open positions margin', () => {
    fc.assert(
      fc.property(scenario(0, 300), (sc) => void play(sc, new Set<Check>(['margin']))),
      { numRuns: RUNS },
    );
  });

  it('(4) take-profit and stop-loss actions match triggeredExit on every tick', () => {
    let exits = 0;
    fc.assert(
      fc.property(scenario(0, 300), (sc) => {
        exits += play(sc, new Set<Check>(['exits'])).exits;
      }),
      { numRuns: RUNS },
    );
    console.log('EXITS', exits);
    expect(exits).toBeGreaterThan(RUNS);
  });
});
