import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, swapCharges } from '../../db/schema.ts';
import { addDays, localDateOf } from './clock.ts';
import { rolloverKit } from './rollover-testing.ts';

/** POST /api/admin/rollover/run: admins only, audited, a bad date refused, a second run charging nothing. */
let t: TestApp;
let admin: string;
let orderIds: number[] = [];
let walletIds: number[] = [];
const kit = rolloverKit(() => t);
// A plain weekday (not forex's triple Wednesday) a week back, away from the dates the schedule may run meanwhile.
const DATE = (() => {
  let d = addDays(localDateOf(new Date(), 'America/New_York'), -7);
  while (!['Mon', 'Tue', 'Thu'].includes(new Date(`${d}T12:00:00Z`).toUTCString().slice(0, 3))) d = addDays(d, -1);
  return d;
})();

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  await kit.quietSchedule();
  const tst = await kit.addInstrument(admin, 'RLV_USD', '-3.6', '1.8');
  const who = await newVerifiedCustomer(t, 'rolloverroute');
  ({ walletIds, orderIds } = await kit.insertPositions(who.id, tst, 2, 3, new Date(Date.now() - 60_000)));
});
afterAll(async () => t.close());

const runNow = (tradingDate: unknown, cookie = admin) =>
  kit.inject('POST', '/admin/rollover/run', cookie, { tradingDate });

describe('POST /admin/rollover/run', () => {
  it('charges every open position for the date now, audited; a second run charges nothing', async () => {
    const res = await runNow(DATE);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ tradingDate: DATE, finished: true });
    expect(body.charged).toBeGreaterThanOrEqual(6);
    expect(body.message).toMatch(new RegExp(`^Rollover of ${DATE} run: \\d+ positions charged or credited$`));
    const mine = await t.ctx.db
      .select()
      .from(swapCharges)
      .where(and(eq(swapCharges.tradingDate, DATE), inArray(swapCharges.orderId, orderIds)));
    expect(mine.map((c) => dec(c.amount).toString()).sort()).toEqual(
      ['-0.11', '-0.11', '-0.11', '-0.11', '0.055', '0.055'].sort(),
    );
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'rollover.run'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit).toMatchObject({ subjectType: 'rollover', before: null });
    expect(audit.after).toMatchObject({ tradingDate: DATE, charged: body.charged });

    const again = await runNow(DATE);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ charged: 0, chargedTotal: body.charged });
    expect(again.json().message).toBe(`Rollover of ${DATE} run: no position to charge`);
    // Each wallet: long, short, long.
    for (const id of walletIds) expect(dec((await kit.consistent(id)).balance).toString()).toBe('999.835');
  });

  it('refuses a date that is not one, or more than a year away, with a 400 and a message', async () => {
    for (const bad of ['2026-02-30', 'tomorrow', '', 20261013, '2026-1-5', `${addDays(DATE, 800)}`]) {
      const res = await runNow(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await kit.inject('POST', '/admin/rollover/run', admin, {})).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    const manager = await signIn(t.app, DEMO.manager);
    expect((await runNow(DATE, manager)).statusCode).toBe(403);
    const client = await signIn(t.app, DEMO.client);
    expect((await runNow(DATE, client)).statusCode).toBe(403);
  });
});
