import { describe, expect, it } from 'vitest';
import { ExposureIndex, scanExposure, type ExposureOrder } from './exposure.ts';
import { RiskEngine } from './risk-engine.ts';

const order = (o: Partial<ExposureOrder> & { id: number }): ExposureOrder => ({
  userId: 1,
  balanceId: 10,
  balanceMode: 'real',
  instrumentId: 0,
  type: 'buy',
  tradeAmount: '1000',
  ...o,
});

/** An engine and its owner index told of the same positions, as the risk service tells both. */
function book() {
  const engine = new RiskEngine();
  const index = new ExposureIndex();
  for (const w of [10, 11, 20, 21]) engine.upsertWallet(w, { balance: 1e9, stopoutPercent: null });
  const open = (o: ExposureOrder, openRate: number) => {
    engine.addPosition({
      orderId: o.id,
      walletId: o.balanceId,
      instrument: o.instrumentId,
      side: o.type as 'buy' | 'sell',
      openRate,
      amount: Number(o.tradeAmount),
      spread: 0,
      convSlot: 0,
      margin: 1,
      takeProfit: null,
      stopLoss: null,
    });
    index.opened(o);
  };
  return { engine, index, open };
}

describe('exposure', () => {
  it('keeps the net per instrument and mode through opens, resizes and closes, and tells each change', () => {
    const index = new ExposureIndex();
    const seen: Array<[number, string, number]> = [];
    index.onNetChange((i, m, n) => seen.push([i, m, n]));
    index.opened(order({ id: 1, tradeAmount: '1000' }));
    index.opened(order({ id: 2, type: 'sell', tradeAmount: '300' }));
    index.opened(order({ id: 3, balanceId: 20, balanceMode: 'demo', tradeAmount: '50' }));
    expect(index.netVolume(0, 'real')).toBe(700);
    expect(index.netVolume(0, 'demo')).toBe(50);
    index.resized(1, 400);
    expect(index.netVolume(0, 'real')).toBe(100);
    const v = index.version;
    index.closed(1);
    index.closed(2);
    expect(index.version).toBe(v + 2);
    expect(index.netVolume(0, 'real')).toBe(0);
    // Told twice is counted once.
    index.closed(2);
    index.opened(order({ id: 3, balanceId: 20, balanceMode: 'demo', tradeAmount: '50' }));
    expect(index.netVolume(0, 'demo')).toBe(50);
    expect(seen.at(-1)).toEqual([0, 'real', 0]);
  });

  it('sums volumes, average prices, P/L and clients from the engine, by mode and by client', () => {
    const { engine, index, open } = book();
    open(order({ id: 1, userId: 1, balanceId: 10, tradeAmount: '1000' }), 1.1);
    open(order({ id: 2, userId: 1, balanceId: 11, tradeAmount: '3000' }), 1.2);
    open(order({ id: 3, userId: 2, balanceId: 20, type: 'sell', tradeAmount: '2000' }), 1.15);
    open(order({ id: 4, userId: 2, balanceId: 21, instrumentId: 1, balanceMode: 'demo', tradeAmount: '5' }), 100);
    engine.tick(0, 1.3, 1.3);
    engine.tick(1, 110, 110);
    const one = () => 1;

    const real = scanExposure(engine, index, { mode: 'real' }, one, true);
    expect(real.instruments).toHaveLength(1);
    const [eur] = real.instruments;
    expect(eur).toMatchObject({ instrumentId: 0, longVolume: 4000, shortVolume: 2000, positions: 3 });
    expect(eur.longValue / eur.longVolume).toBeCloseTo(1.175, 10);
    expect(eur.shortValue / eur.shortVolume).toBeCloseTo(1.15, 10);
    // Longs: 1000 × 0.2 + 3000 × 0.1; the short: −2000 × 0.15.
    expect(eur.pl).toBeCloseTo(500 - 300, 8);
    const byUser = new Map(real.clients.map((c) => [c.userId, c]));
    expect(byUser.get(1)).toMatchObject({ positions: 2 });
    expect(byUser.get(1)?.volume).toBeCloseTo(1000 * 1.1 + 3000 * 1.2, 8);
    expect(byUser.get(2)?.net).toBeCloseTo(-2000 * 1.15, 8);

    const all = scanExposure(engine, index, { mode: 'all' }, one);
    expect(all.instruments.map((s) => s.positions).sort()).toEqual([1, 3]);
    expect(all.clients).toEqual([]);
    const demo = scanExposure(engine, index, { mode: 'demo' }, () => 0.5);
    expect(demo.instruments[0]).toMatchObject({ instrumentId: 1, longVolume: 5 });
    expect(demo.instruments[0].pl).toBeCloseTo(5 * 10 * 0.5, 8);
    const mine = scanExposure(engine, index, { mode: 'real', users: new Set([2]) }, one);
    expect(mine.instruments[0]).toMatchObject({ longVolume: 0, shortVolume: 2000, positions: 1 });
    const nobody = scanExposure(engine, index, { mode: 'all', users: new Set() }, one);
    expect(nobody.instruments).toEqual([]);
  });
});
