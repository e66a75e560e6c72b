import { describe, expect, it } from 'vitest';
import { OrderPathWatch } from '../trading/order-path-watch.ts';
import { LanePacer } from './pacer.ts';

/**
 * A clock the test moves, orders answered every 20 ms while clients trade, and batches charged at a given pace. The
 * run expects 1,000,000 positions within 50 s: on time under 40 s (80 %), late past 45 s (90 %).
 */
function setup(opts: { lanes?: number; giveWay?: boolean; trading?: boolean } = {}) {
  let t = 100_000;
  const now = () => t;
  const watch = new OrderPathWatch(now);
  let trading = opts.trading ?? true;
  const tick = (ms: number) => {
    for (let end = t + 20; end <= t + ms; end += 20) if (trading) watch.answered(end);
    t += ms;
  };
  tick(2_000);
  const pacer = new LanePacer(watch, {
    lanes: opts.lanes ?? 2,
    pauseMs: 5,
    giveWay: opts.giveWay ?? true,
    expected: 1_000_000,
    targetMs: 50_000,
    now,
  });
  /** `seconds` of batches, 200 ms apart, at `perSecond` positions a second; the pacer decides after each. */
  const walk = (seconds: number, perSecond: number) => {
    for (let i = 0; i < seconds * 5; i++) {
      tick(200);
      pacer.charged(perSecond / 5);
      pacer.decide();
    }
  };
  return { pacer, walk, tick, stopTrading: () => (trading = false) };
}

describe('the rollover lanes give way to the order path', () => {
  it('walks one lane while clients trade and the run is on time', () => {
    const { pacer, walk } = setup();
    expect(pacer.lanesNow()).toBe(1);
    // 25,000 a second: 40 s for the million, under 45 s.
    walk(10, 25_000);
    expect(pacer.lanesNow()).toBe(1);
    expect(pacer.stats.lateSteps).toBe(0);
  });

  it('adds a lane when its pace would end the run past 90 % of its target, and takes it away again under 80 %', () => {
    const { pacer, walk } = setup({ lanes: 3 });
    // 15,000 a second at one lane: about 67 s, late; judged once the run has walked a whole pace window (3 s).
    walk(2.8, 15_000);
    expect(pacer.lanesNow()).toBe(1);
    walk(0.2, 15_000);
    expect(pacer.lanesNow()).toBe(2);
    // A change is judged on its own pace: nothing more for 1.5 s.
    walk(1, 15_000);
    expect(pacer.lanesNow()).toBe(2);
    walk(1, 15_000);
    expect(pacer.lanesNow()).toBe(3);
    // Three lanes at 40,000 a second: well under 40 s, so a lane gives way again.
    walk(2, 40_000);
    expect(pacer.lanesNow()).toBe(2);
    expect(pacer.stats).toMatchObject({ lateSteps: 2, stepsDown: 1, fewestLanes: 1 });
    expect(pacer.stats.meanLanes).toBeGreaterThan(1);
    expect(pacer.stats.meanLanes).toBeLessThan(3);
  });

  it("measures its first pace from the first lane's start, not from the reads before it", () => {
    const { pacer, walk, tick } = setup({ lanes: 2 });
    // Making the lanes took 2 s; then 25,000 a second: about 42 s from the start, on time.
    tick(2_000);
    pacer.join(0);
    pacer.join(1);
    walk(4, 25_000);
    expect(pacer.lanesNow()).toBe(1);
    expect(pacer.stats.lateSteps).toBe(0);
  });

  it('never goes below one lane, and the first lane still walking always has its turn', async () => {
    const { pacer, walk } = setup({ lanes: 3 });
    for (const lane of [0, 1, 2]) pacer.join(lane);
    walk(10, 30_000);
    expect(pacer.lanesNow()).toBe(1);
    pacer.leave(0);
    // Lane 1 is now the first walking: its turn comes at once (the pause is real time, a few ms).
    await expect(Promise.race([pacer.turn(1).then(() => 'went'), sleep(2_000).then(() => 'waited')])).resolves.toBe(
      'went',
    );
  });

  it('walks every lane when no client trades, from the start or once orders stop', () => {
    const idle = setup({ trading: false });
    expect(idle.pacer.lanesNow()).toBe(2);
    idle.walk(5, 30_000);
    expect(idle.pacer.lanesNow()).toBe(2);

    const { pacer, walk, stopTrading } = setup();
    walk(2, 30_000);
    expect(pacer.lanesNow()).toBe(1);
    stopTrading();
    walk(2, 30_000);
    expect(pacer.lanesNow()).toBe(2);
    expect(pacer.stats.stepsUp).toBe(1);
  });

  it('walks every lane throughout when told not to give way', () => {
    const { pacer, walk } = setup({ giveWay: false });
    walk(5, 30_000);
    expect(pacer.lanesNow()).toBe(2);
    expect(pacer.stats.meanLanes).toBe(2);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
