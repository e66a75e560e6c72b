import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { follower, memoryBuses } from '../../../test/cluster-testing.ts';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import type { ClusterBus } from '../../cluster/bus.ts';
import { riskLimits } from '../../db/schema.ts';
import { RiskService } from '../../engine/risk-service.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { followLimitChanges, LIMITS_CHANGED, limitsOf } from './limits.ts';

let t: TestApp;
const kit = depthKit(() => t);
let other: RiskService;
let mine: ClusterBus;
let busBefore: ClusterBus;
let stopFollowing: () => void;

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  const [a, theirs] = memoryBuses();
  mine = a;
  busBefore = t.ctx.cluster.bus;
  t.ctx.cluster.bus = mine;
  const otherCtx = { ...t.ctx, cluster: { bus: theirs, leadership: follower() } };
  other = new RiskService(() => otherCtx);
  await other.start();
  stopFollowing = followLimitChanges(otherCtx);
});
afterAll(async () => {
  stopFollowing();
  await other.stop();
  t.ctx.cluster.bus = busBefore;
  await t.close();
});

describe('limits and exposure on several instances', () => {
  it('gives every instance the same net and exposure, and reloads the limits when told, not per order', async () => {
    const { client, walletId } = await kit.demoClient();
    await kit.flat(walletId);
    const eur = t.ctx.market.instruments.byNameOf('EUR_USD')!;
    await kit.place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    await kit.place(client, { type: 'sell', instrument: 'EUR_USD', amount: '2500' });
    expect(t.ctx.risk.netVolume(eur.id, 'demo')).toBe(7500);
    expect(other.netVolume(eur.id, 'demo')).toBe(7500);
    const here = t.ctx.risk.exposure({ mode: 'demo' }, 'USD', false).instruments;
    const there = other.exposure({ mode: 'demo' }, 'USD', false).instruments;
    expect(there.find((s) => s.instrumentId === eur.id)).toMatchObject({
      longVolume: 10000,
      shortVolume: 2500,
      positions: 2,
    });
    expect(there).toEqual(here);

    // A limit written straight into the database is not seen: the order path does not read it per order.
    await limitsOf(t.ctx.db);
    await t.ctx.db.insert(riskLimits).values({ scope: 'instrument', target: 'EUR_USD', maxNetVolume: '8000' });
    await kit.place(client, { type: 'buy', instrument: 'EUR_USD', amount: '1000' });
    // Another instance announces a change: the limits are read again, and the next crossing order is refused.
    mine.publish('cache', LIMITS_CHANGED);
    await expect.poll(async () => (await limitsOf(t.ctx.db)).rows.length).toBe(1);
    const refused = await kit.inject('POST', '/dashboard/orders', client, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/limit of 8,000; at most 0 can be bought/);
    await kit.place(client, { type: 'sell', instrument: 'EUR_USD', amount: '500' });
    expect(other.netVolume(eur.id, 'demo')).toBe(8000);

    const admin = await signIn(t.app, DEMO.admin);
    const cleared = await kit.inject('PUT', '/admin/risk/limits', admin, { limits: [] });
    expect(cleared.statusCode).toBe(200);
    await kit.flat(walletId);
    await other.idle();
    expect(other.netVolume(eur.id, 'demo')).toBe(0);
  });
});
