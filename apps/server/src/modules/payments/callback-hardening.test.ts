import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { paymentsKit, type PaymentsKit } from '../../../test/payments-kit.ts';
import { deposits, paymentCallbacks } from '../../db/schema.ts';
import { FakeProvider, type Handler } from '../../integrations/payments/testing/fake-provider.ts';
import { purgeOldCallbacks, RAW_CALLBACK_DAYS, REFUSED_CALLBACK_DAYS, sweepStrandedCallbacks } from './callbacks.ts';

/**
 * The public callback routes take anyone's requests: refused ones must not grow the database, and a provider whose
 * signature leaves the status unsigned (WiPays) must not credit on what an unsigned field says.
 */
const TOKEN = 'metrics-token-for-callback-tests-0123';
const WIPAYS_PUBLIC = 'pub_fake_wipays_hardening';
const WIPAYS_SECRET = 'sec_fake_wipays_hardening';

/** WiPays' payment initiation as documented; nothing else (WiPays documents no status API). */
const wipaysApi: Handler = (r, reply) => {
  const b = r.json as Record<string, unknown> | undefined;
  if (r.method !== 'POST' || r.path !== '/payment/initiate' || b?.public_key !== WIPAYS_PUBLIC)
    return reply.json(404, { status: 'error', message: 'Not found' });
  reply.json(200, {
    status: 'success',
    message: 'Payment initiated successfully',
    redirect_url: 'https://wipays.com/payment/checkout?payment_trx=TRXHARD1',
  });
};

let t: TestApp;
let wipays: FakeProvider;
let kit: PaymentsKit;

beforeAll(async () => {
  wipays = await FakeProvider.start(wipaysApi);
  t = await createTestApp({ METRICS_TOKEN: TOKEN, PAYMENT_API_URLS: JSON.stringify({ wipays: wipays.url }) });
  kit = await paymentsKit(t);
  await kit.saveGateway('wipays', { key1: WIPAYS_PUBLIC, key2: WIPAYS_SECRET, fee: '0', isActive: 'true' });
});
afterAll(async () => {
  await t.close();
  await wipays.close();
});

const refusedCount = async (kind: string): Promise<number> => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const line = res.body.split('\n').find((l) => l.startsWith(`payment_callbacks_refused_total{kind="${kind}"}`));
  return line ? Number(line.split(' ')[1]) : 0;
};
const storedBytes = async (): Promise<number> => {
  const { rows } = (await t.ctx.db.execute(
    sql`select coalesce(sum(length(body) + length(headers::text) + length(query::text)), 0)::int as n from payment_callbacks`,
  )) as unknown as { rows: Array<{ n: number }> };
  return Number(rows[0].n);
};

describe('refused payment callbacks', () => {
  it('a body over 64 KB is refused with 413, and nothing is stored', async () => {
    const before = await t.ctx.db.select({ id: paymentCallbacks.id }).from(paymentCallbacks);
    const big = JSON.stringify({ type: 'checkout.session.completed', pad: 'x'.repeat(240 * 1024) });
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/stripe/callback',
        headers: { 'content-type': 'application/json' },
        payload: big,
      });
      expect(res.statusCode).toBe(413);
    }
    expect(await t.ctx.db.select({ id: paymentCallbacks.id }).from(paymentCallbacks)).toHaveLength(before.length);
  });

  it('keep no body nor headers, only a bounded summary, and are counted in /metrics', async () => {
    const counted = await refusedCount('stripe');
    const bytes = await storedBytes();
    const body = JSON.stringify({ type: 'checkout.session.completed', pad: 'y'.repeat(60 * 1024) });
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/stripe/callback',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged', 'x-pad': 'z'.repeat(2000) },
        payload: body,
      });
      expect(res.statusCode).toBe(400);
    }
    expect(await refusedCount('stripe')).toBe(counted + 60);
    // 60 × 61 KB refused: the table grew by their summaries only.
    expect((await storedBytes()) - bytes).toBeLessThan(60 * 20);
    const [last] = await t.ctx.db.select().from(paymentCallbacks).orderBy(desc(paymentCallbacks.id)).limit(1);
    expect(last).toMatchObject({ kind: 'stripe', outcome: 'rejected', body: '', headers: {}, eventId: null });
    expect(last.error).toMatch(/\(61\d{3} bytes, application\/json\)$/);
  });

  it('raw bodies of finished callbacks are blanked after the retention period (the settlement stays); old refusals go', async () => {
    const days = (n: number) => sql`now() - make_interval(days => ${n})`;
    const [settled] = await t.ctx.db
      .insert(paymentCallbacks)
      .values({
        kind: 'stripe',
        eventId: 'evt_old_settled',
        headers: { 'content-type': 'application/json' },
        body: '{"old":"payload"}',
        confirmation: { eventId: 'evt_old_settled', reference: 'r', outcome: 'approved', amount: '5', currency: 'USD' },
        outcome: 'approved',
        depositId: 1,
        receivedAt: days(RAW_CALLBACK_DAYS + 1) as unknown as Date,
      })
      .returning();
    const [recent] = await t.ctx.db
      .insert(paymentCallbacks)
      .values({ kind: 'stripe', eventId: 'evt_recent', headers: {}, body: '{"recent":1}', outcome: 'approved' })
      .returning();
    const [noise] = await t.ctx.db
      .insert(paymentCallbacks)
      .values({
        kind: 'stripe',
        headers: {},
        body: '',
        outcome: 'rejected',
        receivedAt: days(REFUSED_CALLBACK_DAYS + 1) as unknown as Date,
      })
      .returning();
    await sweepStrandedCallbacks(t.ctx);
    const row = async (id: number) =>
      (await t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.id, id)))[0];
    expect(await row(settled.id)).toMatchObject({
      body: '',
      headers: {},
      outcome: 'approved',
      eventId: 'evt_old_settled',
      depositId: 1,
      confirmation: { eventId: 'evt_old_settled', outcome: 'approved' },
    });
    expect((await row(recent.id)).body).toBe('{"recent":1}');
    expect(await row(noise.id)).toBeUndefined();
    expect(await purgeOldCallbacks(t.ctx)).toEqual({ blanked: 0, deleted: 0 });
  });
});

describe('WiPays notifications', () => {
  /** An IPN as WiPays sends it: the signature covers identifier and timestamp only. */
  function ipn(reference: string, status: string, amount: string, timestamp = Math.floor(Date.now() / 1000)) {
    const signature = createHmac('sha256', WIPAYS_SECRET)
      .update(`${reference}${timestamp}`)
      .digest('hex')
      .toUpperCase();
    return {
      identifier: reference,
      status,
      timestamp,
      signature,
      data: { trx: 'TRXHARD1', amount, currency: 'USD', type: 'checkout' },
    };
  }
  const post = (body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/wipays/callback',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('a captured pending notice re-sent as success is a replay and credits nothing', async () => {
    const d = (await kit.deposit('wipays', '30')).row;
    const before = await kit.balance();
    const pending = ipn(d.reference, 'pending', '30');
    const first = await post(pending);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().outcome).toBe('pending');
    // The event id is recorded when first seen, not only once settled.
    const [seen] = await t.ctx.db.select().from(paymentCallbacks).orderBy(desc(paymentCallbacks.id)).limit(1);
    expect(seen.eventId).toBe(`${d.reference}:${pending.timestamp}`);

    const forged = await post({ ...pending, status: 'success' });
    expect(forged.statusCode).toBe(200);
    expect(forged.json().outcome).toBe('replay');
    const [row] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, d.id));
    expect(row.status).toBe('pending');
    expect(await kit.balance()).toBe(before);
  });

  it('a signed success settles nothing by itself: the deposit waits for staff, who see what WiPays claims', async () => {
    const d = (await kit.deposit('wipays', '45')).row;
    const before = await kit.balance();
    const paid = await post(ipn(d.reference, 'success', '45', Math.floor(Date.now() / 1000) - 1));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().outcome).toBe('pending');
    const [cb] = await t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.depositId, d.id));
    expect(cb.error).toMatch(/^WiPays says paid: 45 USD\. WiPays does not sign the status or amount/);
    const [row] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, d.id));
    expect(row.status).toBe('pending');
    expect(await kit.balance()).toBe(before);
    const notes = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: kit.admin } });
    expect(JSON.stringify(notes.json())).toContain(`Deposit #${d.id} to check`);

    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/admin/deposits/${d.id}/approve`,
      headers: { cookie: kit.admin },
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(Number(await kit.balance()) - Number(before)).toBeCloseTo(45, 8);
  });
});
