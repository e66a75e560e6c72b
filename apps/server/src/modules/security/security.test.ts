import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { cookieOf, createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, kycDocuments, sessions, signIns, withdrawals } from '../../db/schema.ts';
import { moveMoney } from '../wallets/ledger.ts';

let t: TestApp;
let admin: string;

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

async function signInWith(email: string, password: string, userAgent: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cookieOf(res);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

describe('sessions and sign-in history', () => {
  it('lists the live sessions with their device, signs one or all others out, and keeps to the caller', async () => {
    const c = await newVerifiedCustomer(t, 'sessions');
    const desk = await signInWith(c.email, c.password, CHROME_WIN);
    const phone = await signInWith(c.email, c.password, SAFARI_IPHONE);
    const third = await signInWith(c.email, c.password, CHROME_WIN);
    const listed = (await call('GET', '/security/sessions', desk)).json().data;
    expect(listed).toHaveLength(3);
    const mine = listed.find((s: { current: boolean }) => s.current);
    expect(mine.device).toBe('Chrome 131 on Windows 10');
    expect(listed.map((s: { device: string }) => s.device)).toContain('Safari 17 on iOS 17.5');

    // Another user's session is not theirs to end.
    const other = (await call('GET', '/security/sessions', admin)).json().data[0];
    expect((await call('DELETE', `/security/sessions/${other.id}`, desk)).statusCode).toBe(404);
    expect((await call('GET', '/auth/user', admin)).statusCode).toBe(200);

    const phoneSession = listed.find((s: { device: string }) => s.device.startsWith('Safari'));
    expect((await call('DELETE', `/security/sessions/${phoneSession.id}`, desk)).json().message).toBe(
      'Session signed out',
    );
    expect((await call('GET', '/auth/user', phone)).statusCode).toBe(401);
    expect((await call('DELETE', '/security/sessions', desk)).json().message).toBe('1 other session signed out');
    expect((await call('GET', '/auth/user', third)).statusCode).toBe(401);
    expect((await call('GET', '/auth/user', desk)).statusCode).toBe(200);
    expect((await call('DELETE', '/security/sessions/abc', desk)).statusCode).toBe(400);
  });

  it('keeps every sign-in attempt of the account, newest first, and shows it to staff who may open the customer', async () => {
    const c = await newVerifiedCustomer(t, 'history');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': SAFARI_IPHONE },
      payload: { email: c.email, password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    const cookie = await signInWith(c.email, c.password, CHROME_WIN);
    const history = (await call('GET', '/security/sign-ins', cookie)).json().data;
    expect(history.map((h: { result: string }) => h.result).slice(0, 2)).toEqual(['success', 'wrong_password']);
    expect(history[1].device).toBe('Safari 17 on iOS 17.5');

    const seen = await call('GET', `/admin/customers/${c.id}/sign-ins`, admin);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data[0].result).toBe('success');
    expect((await call('GET', `/admin/customers/${c.id}/sessions`, admin)).json().data).toHaveLength(1);
    // An agent who is not assigned the customer gets a 404; a customer a 403.
    const agent = await signIn(t.app, DEMO.agent);
    expect((await call('GET', `/admin/customers/${c.id}/sign-ins`, agent)).statusCode).toBe(404);
    expect((await call('GET', `/admin/customers/${c.id}/sign-ins`, cookie)).statusCode).toBe(403);
    expect(await t.ctx.db.select().from(signIns).where(eq(signIns.userId, c.id))).toHaveLength(2);
  });
});

describe('re-authentication', () => {
  it('asks a session older than 15 minutes for the password before a withdrawal request, then lets it through', async () => {
    const c = await newVerifiedCustomer(t, 'reauth');
    await t.ctx.db.insert(kycDocuments).values({ userId: c.id, type: 'passport', status: 'approved' });
    const [w] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
    await t.ctx.db.transaction((tx) =>
      moveMoney(tx, {
        balanceId: w.id,
        amount: '500',
        kind: 'adjustment',
        refType: 'staff',
        refId: null,
        actorId: null,
        note: 'funding',
      }),
    );
    const cookie = await signIn(t.app, c.email, c.password);
    await t.ctx.db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '20 minutes'` })
      .where(eq(sessions.userId, c.id));
    const body = {
      bank_name: 'Barclays',
      account_name: 'x',
      account_number: 'GB29NWBK60161331926819',
      swift_code: 'NWBKGB2L',
      bank_country: 'United Kingdom',
      balance_id: w.id,
      amount: '100',
    };
    const refused = await call('POST', '/withdraws/bank', cookie, body);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ reauth: true, message: 'Please enter your password again to continue.' });
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, c.id))).toHaveLength(0);
    // Still signed in: only the sensitive call waits.
    expect((await call('GET', '/auth/user', cookie)).statusCode).toBe(200);

    const bad = await call('POST', '/auth/confirm', cookie, { password: 'wrong-password' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.password).toBe('The password is not right.');
    expect((await call('POST', '/auth/confirm', cookie, {})).statusCode).toBe(400);
    expect((await call('POST', '/auth/confirm', cookie, { password: c.password })).json().message).toBe('Confirmed');
    const through = await call('POST', '/withdraws/bank', cookie, body);
    expect(through.statusCode, through.body).toBe(200);
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, c.id))).toHaveLength(1);
  });
});
