import { describe, expect, it } from 'vitest';
import { RiskEngine } from './risk-engine.ts';

/** One wallet of 1,000 with a buy of 10,000 at 1.0 holding 100 of margin: margin level = equity %. */
function engineWithCall() {
  const engine = new RiskEngine();
  engine.upsertWallet(1, { balance: 1000, stopoutPercent: 50, marginCall: { level: 100, rearm: 10 } });
  engine.addPosition({
    orderId: 7,
    walletId: 1,
    instrument: 0,
    side: 'buy',
    openRate: 1,
    amount: 10_000,
    spread: 0,
    convSlot: 0,
    margin: 100,
    takeProfit: null,
    stopLoss: null,
  });
  const sweepAt = (bid: number) => engine.sweep(Float64Array.of(bid), Float64Array.of(bid));
  return { engine, sweepAt };
}

describe('margin calls in the risk engine', () => {
  it('fires once when the margin level falls to the call level, and again only after it recovered past the re-arm', () => {
    const { engine, sweepAt } = engineWithCall();
    expect(engine.tick(0, 0.95, 0.95)).toEqual([]);
    expect(engine.wallets.drainCalls()).toEqual({ called: [], rearmed: [] });
    // Equity 100 on 100 of margin: 100 %, the call level.
    expect(engine.tick(0, 0.91, 0.91)).toEqual([]);
    expect(engine.wallets.drainCalls()).toEqual({ called: [1], rearmed: [] });
    expect(engine.tick(0, 0.909, 0.909)).toEqual([]);
    expect(sweepAt(0.908)).toEqual([]);
    expect(engine.wallets.drainCalls()).toEqual({ called: [], rearmed: [] });
    // 105 % is back above the level but not past level + re-arm (110 %): still fired.
    sweepAt(0.9105);
    expect(engine.wallets.drainCalls()).toEqual({ called: [], rearmed: [] });
    sweepAt(0.912);
    expect(engine.wallets.drainCalls()).toEqual({ called: [], rearmed: [1] });
    // Armed again: the next fall to the level calls again.
    expect(engine.tick(0, 0.91, 0.91)).toEqual([]);
    expect(engine.wallets.drainCalls()).toEqual({ called: [1], rearmed: [] });
  });

  it('stops out below the stop-out level whether or not the call fired, and a wallet without a call level never calls', () => {
    const { engine } = engineWithCall();
    const actions = engine.tick(0, 0.905, 0.905);
    expect(actions).toEqual([{ orderId: 7, walletId: 1, reason: 'stop_out', price: 0.905 }]);
    expect(engine.wallets.stopOutInFlight(1)).toBe(true);

    const plain = new RiskEngine();
    plain.upsertWallet(2, { balance: 1000, stopoutPercent: 50, marginCall: null });
    plain.addPosition({
      orderId: 8,
      walletId: 2,
      instrument: 0,
      side: 'buy',
      openRate: 1,
      amount: 10_000,
      spread: 0,
      convSlot: 0,
      margin: 100,
      takeProfit: null,
      stopLoss: null,
    });
    expect(plain.tick(0, 0.91, 0.91)).toEqual([]);
    expect(plain.wallets.drainCalls().called).toEqual([]);
  });

  it('starts fired when the database says the call already went out (a restart or a takeover)', () => {
    const { engine } = engineWithCall();
    engine.wallets.setArmed(1, false);
    engine.tick(0, 0.91, 0.91);
    expect(engine.wallets.drainCalls().called).toEqual([]);
  });
});
