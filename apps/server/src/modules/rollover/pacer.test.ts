import { describe, expect, it } from 'vitest';
import { OrderPathWatch } from '../trading/order-path-watch.ts';
import { LanePacer } from './pacer.ts';

/** A clock the test moves, and orders of a given answer time every 20 ms over a span. */
function setup(lanes = 2, budgetMs = 5, target: { expected?: number; targetMs?: number } = {}) {
  let t = 100_000;
  const now = () => t;
  const watch = new OrderPathWatch(now);
  const orders = (ms: number, spanMs: number) => {
    for (let end = t + 20; end <= t + spanMs; end += 20) watch.record(ms, end - ms);
    t += spanMs;
  };
  orders(6, 10_000); // the usual: 6 ms before the run
  const pacer = new LanePacer(watch, { lanes, pauseMs: 5, budgetMs, now, ...target });
  return { pacer, orders, advance: (ms: number) => (t += ms) };
}

describe('the rollover lanes give way to the order path', () => {
  it('keeps every lane while orders answer within the budget of their usual time', () => {
    const { pacer, orders } = setup();
    expect(pacer.stats.baselineMs).toBe(6);
    orders(10, 2_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(2);
    expect(pacer.stats.stepsDown).toBe(0);
  });

  it('drops lanes one at a time down to one when orders slow past the budget, and brings them back once they recover', () => {
    const { pacer, orders } = setup(3);
    orders(20, 1_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(2);
    // The next decision waits for answers given after the change.
    pacer.decide();
    expect(pacer.stats.stepsDown).toBe(1);
    orders(20, 1_000);
    pacer.decide();
    orders(20, 1_000);
    pacer.decide();
    // Never fewer than one lane: the run goes on at one lane's pace.
    expect(pacer.lanesNow()).toBe(1);
    expect(pacer.stats.stepsDown).toBe(2);
    orders(6, 1_000);
    pacer.decide();
    orders(6, 1_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(3);
    expect(pacer.stats.stepsUp).toBe(2);
    expect(pacer.stats.fewestLanes).toBe(1);
  });

  it('lets the first lane still walking go on, so a run under pressure still ends', async () => {
    const { pacer, orders } = setup(3);
    for (const lane of [0, 1, 2]) pacer.join(lane);
    orders(30, 1_000);
    pacer.decide();
    orders(30, 1_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(1);
    pacer.leave(0);
    // Lane 1 is now the first walking: its turn comes at once (the pause is real time, a few ms).
    await expect(Promise.race([pacer.turn(1).then(() => 'went'), sleep(2_000).then(() => 'waited')])).resolves.toBe(
      'went',
    );
  });

  it('keeps every lane, slow orders or not, while the run would end past 90 % of its target, and gives way again under 80 %', () => {
    const { pacer, orders } = setup(2, 5, { expected: 1_000_000, targetMs: 50_000 });
    orders(20, 1_000);
    pacer.charged(20_000);
    pacer.decide();
    // 20,000 positions in 1 s: 50 s for the million, past 45 s.
    expect(pacer.lanesNow()).toBe(2);
    orders(20, 1_000);
    pacer.charged(25_000);
    pacer.decide();
    // 45,000 in 2 s: 44 s, under 45 s but over 40 s: still late.
    expect(pacer.lanesNow()).toBe(2);
    orders(20, 1_000);
    pacer.charged(55_000);
    pacer.decide();
    // 100,000 in 3 s: 30 s, on time again: the slow orders get a lane.
    expect(pacer.lanesNow()).toBe(1);
    // Nothing more charged for 2 s: 100,000 in 5 s projects 50 s, late again.
    orders(20, 2_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(2);
    expect(pacer.stats.lateSteps).toBe(1);
  });

  it('never gives way with a budget of 0', () => {
    const { pacer, orders } = setup(2, 0);
    orders(200, 2_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(2);
  });

  it('goes back to full speed when no order comes for a whole window', () => {
    const { pacer, orders, advance } = setup();
    orders(20, 1_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(1);
    advance(1_000);
    pacer.decide();
    expect(pacer.lanesNow()).toBe(2);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
