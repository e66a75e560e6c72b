import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, DEMO, multipart, PNG_BYTES, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, kycDocuments, users } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ MARKET_HOURS: 'open' });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

const base = {
  appName: 'Acme Markets',
  appUrl: 'https://trade.acme.test',
  appCurrency: 'usd',
  recaptchaClientKey: '',
  recaptchaSecretKey: 'secret-1',
  whatsapp: '+44 20 7946 0000',
  webhookApiKeyLeads: 'leads-key',
  demoBalance: '25000',
  kycDeposit: 'on',
  kycWithdraw: 'on',
  kycTrade: 'on',
  recaptcha: 'off',
  pricingPlan: 'on',
  emailVerify: 'on',
  showUserInfoAgent: 'off',
};
const save = (fields: Record<string, string>, files: Parameters<typeof multipart>[1] = {}, cookie = admin) => {
  const form = multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/settings',
    headers: { ...form.headers, cookie },
    payload: form.payload,
  });
};

describe('the retail risk warning', () => {
  it('is on by default without a figure, carries the share of losing accounts an admin states, and can be turned off', async () => {
    const branding = async () => (await t.app.inject({ method: 'GET', url: '/api/settings/branding' })).json();
    expect((await branding()).riskWarning).toEqual({ losingPercent: null });
    expect((await save({ ...base, riskWarningPercent: '74.5' })).statusCode).toBe(200);
    expect((await branding()).riskWarning).toEqual({ losingPercent: '74.5' });
    // A form that leaves the fields out keeps them.
    expect((await save(base)).statusCode).toBe(200);
    expect((await branding()).riskWarning).toEqual({ losingPercent: '74.5' });
    for (const bad of ['101', '-1', '12.345', 'many']) {
      const res = await save({ ...base, riskWarningPercent: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await save({ ...base, riskWarning: 'off' })).statusCode).toBe(200);
    expect((await branding()).riskWarning).toBeNull();
    expect((await save({ ...base, riskWarning: 'on', riskWarningPercent: '' })).statusCode).toBe(200);
    expect((await branding()).riskWarning).toEqual({ losingPercent: null });
  });
});

describe('site settings', () => {
  it('saves every field and the branding uploads, shows the secret only as set, and the public branding follows at once', async () => {
    const res = await save(base, { appLogo: { data: PNG_BYTES, filename: 'logo.png', type: 'image/png' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Settings updated successfully');
    const form = (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin } })).json();
    expect(form).toMatchObject({
      appName: 'Acme Markets',
      appCurrency: 'USD',
      demoBalance: '25000',
      recaptchaSecretSet: true,
      whatsapp: '+44 20 7946 0000',
      kycTrade: true,
    });
    // The App URL is the one the server uses (APP_URL or its own port), not what a form once stored.
    expect(form.appUrl).toBe(t.ctx.config.appUrl);
    expect(JSON.stringify(form)).not.toContain('secret-1');
    const branding = (await t.app.inject({ method: 'GET', url: '/api/settings/branding' })).json();
    expect(branding.appName).toBe('Acme Markets');
    expect(branding.appLogo).toMatch(/^\/api\/files\//);
    // The logo is public: the sign-in page shows it before anyone signs in.
    const logo = await t.app.inject({ method: 'GET', url: branding.appLogo });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    // A blank secret keeps the stored one.
    expect((await save({ ...base, recaptchaSecretKey: '' })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin } })).json()
        .recaptchaSecretSet,
    ).toBe(true);
    const [audit] = await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.action, 'settings.update')).limit(1);
    expect(JSON.stringify(audit.after)).not.toContain('secret-1');
    expect(JSON.stringify(audit.after)).not.toContain('leads-key');
  });

  it('applies the KYC-for-trade switch to the next order without a restart', async () => {
    const client = await signIn(t.app, DEMO.client);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
    // The demo client trades on its real wallet without approved KYC once the switch is off.
    await t.ctx.db.update(kycDocuments).set({ status: 'pending' }).where(eq(kycDocuments.userId, u.id));
    const [real] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, u.id), eq(balances.mode, 'real')));
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/dashboard/switch-wallet',
          headers: { cookie: client },
          payload: { balanceId: real.id },
        })
      ).statusCode,
    ).toBe(200);
    t.ctx.market.book.apply([
      { name: 'EUR_USD', bid: 1.1, ask: 1.1002, closeoutBid: 1.1, closeoutAsk: 1.1002, time: Date.now() },
    ]);
    const order = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/dashboard/orders',
        headers: { cookie: client },
        payload: { type: 'buy', instrument: 'EUR_USD', amount: '1000' },
      });
    // The client is told which actions wait for KYC, so its notice shows exactly where the server refuses.
    const kycRequired = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: client } })).json().kycRequired;
    expect((await order()).statusCode).toBe(403);
    expect(await kycRequired()).toEqual({ deposit: true, withdraw: true, trade: true });
    expect((await save({ ...base, kycTrade: 'off' })).statusCode).toBe(200);
    const placed = await order();
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await kycRequired()).toEqual({ deposit: true, withdraw: true, trade: false });
  });

  it('refuses bad input with the spec messages and other roles', async () => {
    const blank = await save({ ...base, appName: '', appUrl: '', appCurrency: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toMatchObject({ appName: 'required', appUrl: 'required', appCurrency: 'required' });
    expect((await save({ ...base, appCurrency: 'XYZ' })).statusCode).toBe(400);
    expect((await save({ ...base, demoBalance: '1e13' })).statusCode).toBe(400);
    expect((await save({ ...base, appName: 'a\u0000b' })).statusCode).toBe(400);
    expect(
      (await save(base, { appLogo: { data: Buffer.from('not an image'), filename: 'x.png', type: 'image/png' } }))
        .statusCode,
    ).toBe(400);
    expect((await save(base, {}, await signIn(t.app, DEMO.manager))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/settings' })).statusCode).toBe(401);
  });
});
