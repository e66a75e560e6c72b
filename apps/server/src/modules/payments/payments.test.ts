import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, deposits, paymentCallbacks, users } from '../../db/schema.ts';
import { sandboxCallback } from '../../integrations/payments/sandbox.ts';
import { keysOf, loadGateway } from '../gateways/service.ts';

let t: TestApp;
let client: string;
let wallet: number;

const balanceOf = async () => (await t.ctx.db.select().from(balances).where(eq(balances.id, wallet)))[0].balance;

async function sandboxDeposit(amount = '100') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deposits',
    headers: { cookie: client },
    payload: { balance_id: wallet, amount, gateway: 'sandbox' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { paymentLink, id } = res.json() as { paymentLink: string; id: number };
  const [d] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, id));
  expect(paymentLink).toBe(`/payments/sandbox/${d.reference}`);
  return d;
}

const postCallback = (body: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/payments/sandbox/callback', headers, payload: body });

beforeAll(async () => {
  // The sandbox gateway is on by default only on the embedded database; the suite also runs on PostgreSQL.
  t = await createTestApp({ PAYMENTS_SANDBOX: 'true' });
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  wallet = (
    await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, u.id), eq(balances.mode, 'real')))
  )[0].id;
});
afterAll(() => t.close());

describe('sandbox card gateway', () => {
  it('approves through its signed callback: the wallet gets the amount (not the fee) and the page lands on success', async () => {
    const d = await sandboxDeposit('100');
    expect(d.fee).toBe('2.50000000');
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/payments/sandbox/${d.reference}`,
      headers: { cookie: client },
    });
    expect(page.json()).toMatchObject({ amount: '102.50', currency: 'USD', status: 'pending' });
    const before = await balanceOf();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/${d.reference}/approve`,
      headers: { cookie: client },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', amount: '100.00' });
    expect(res.json().redirect).toMatch(/^\/deposits\?status=success&amount=100\.00/);
    expect(Number(await balanceOf()) - Number(before)).toBeCloseTo(100, 8);
    const sums = await ledgerAndBalance(t, wallet);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
    // Deciding again changes nothing.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/${d.reference}/decline`,
      headers: { cookie: client },
    });
    expect(again.json().status).toBe('success');
    expect(Number(await balanceOf()) - Number(before)).toBeCloseTo(100, 8);
  });

  it('declines without money moving', async () => {
    const d = await sandboxDeposit('40');
    const before = await balanceOf();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/${d.reference}/decline`,
      headers: { cookie: client },
    });
    expect(res.json().status).toBe('failed');
    expect(await balanceOf()).toBe(before);
  });

  it('credits nothing for forged, stale, tampered or replayed callbacks', async () => {
    const d = await sandboxDeposit('75');
    const keys = keysOf(await loadGateway(t.ctx.db, 'sandbox'));
    const before = await balanceOf();
    const event = { reference: d.reference, outcome: 'approved' as const, amount: '76.88', currency: 'USD' };

    const forged = sandboxCallback({ ...keys, key1: 'not-the-secret' }, event);
    expect((await postCallback(forged.body, forged.headers)).statusCode).toBe(400);
    const unsigned = sandboxCallback(keys, event);
    expect((await postCallback(unsigned.body, { 'content-type': 'application/json' })).statusCode).toBe(400);
    const stale = sandboxCallback(keys, event, Date.now() - 10 * 60 * 1000);
    expect((await postCallback(stale.body, stale.headers)).statusCode).toBe(400);
    const good = sandboxCallback(keys, event);
    const tampered = good.body.replace('76.88', '7688.00');
    expect((await postCallback(tampered, good.headers)).statusCode).toBe(400);
    expect(await balanceOf()).toBe(before);

    // Signed, but for another amount than the deposit's total: recorded, not credited.
    const wrongAmount = sandboxCallback(keys, { ...event, amount: '1.00' });
    expect((await postCallback(wrongAmount.body, wrongAmount.headers)).json().outcome).toBe('mismatch');
    expect(await balanceOf()).toBe(before);

    const responses = await Promise.all(Array.from({ length: 5 }, () => postCallback(good.body, good.headers)));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(responses.map((r) => r.json().outcome).sort()).toEqual(['approved', 'replay', 'replay', 'replay', 'replay']);
    expect(Number(await balanceOf()) - Number(before)).toBeCloseTo(75, 8);
    const stored = await t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.kind, 'sandbox'));
    expect(stored.filter((c) => c.outcome === 'rejected').length).toBeGreaterThanOrEqual(4);
  });

  it('is off on a real database unless configured, and a callback for it is refused', async () => {
    const pg = await createTestApp({ PAYMENTS_SANDBOX: 'false' });
    try {
      const cookie = await signIn(pg.app, DEMO.client);
      const options = (await pg.app.inject({ method: 'GET', url: '/api/deposits/gateways', headers: { cookie } }))
        .json()
        .data.map((g: { value: string }) => g.value);
      expect(options).not.toContain('sandbox');
      const keys = keysOf(await loadGateway(pg.ctx.db, 'sandbox'));
      const cb = sandboxCallback(keys, {
        reference: 'dp_xxxxxxxxxxxxxxxx',
        outcome: 'approved',
        amount: '1.00',
        currency: 'USD',
      });
      expect(
        (
          await pg.app.inject({
            method: 'POST',
            url: '/api/payments/sandbox/callback',
            headers: cb.headers,
            payload: cb.body,
          })
        ).statusCode,
      ).toBe(400);
    } finally {
      await pg.close();
    }
  });

  it("keeps one customer out of another's payment pages", async () => {
    const d = await sandboxDeposit('10');
    const admin = await signIn(t.app, DEMO.admin);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${d.reference}`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/payments/return/dp_unknownreference`,
          headers: { cookie: client },
        })
      ).statusCode,
    ).toBe(404);
  });
});
