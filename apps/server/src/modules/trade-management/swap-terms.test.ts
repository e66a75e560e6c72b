import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, multipart, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, instruments, pricingPlans } from '../../db/schema.ts';

/** The trading terms of trading depth 2 as admins set them: swap rates and calendar, rollover time, plan terms. */
let t: TestApp;
let admin: string;
let client: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  client = await signIn(t.app, DEMO.client);
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const instrument = (over: Record<string, unknown> = {}) => ({
  name: 'SEK_USD',
  base: 'SEK',
  quote: 'USD',
  category: 'forex',
  bids: '0.0951',
  asks: '0.0952',
  tradingview: 'OANDA',
  leverage: 100,
  tradable: true,
  ...over,
});

describe('swap rates of instruments', () => {
  it('takes the spec swap as both sides unless each side is named, answering both spellings', async () => {
    const res = await call('POST', '/api/admin/instruments', instrument({ swap: '-1.5' }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().instrument;
    expect(created).toMatchObject({ swap: '-1.5', swap_long: '-1.5', swap_short: '-1.5', swapLong: '-1.5' });
    const edit = await call(
      'PUT',
      `/api/admin/instruments/${created.id}`,
      instrument({ swap: '-1.5', swapLong: '-2.25', swapShort: 0.75 }),
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().instrument).toMatchObject({ swap_long: '-2.25', swap_short: '0.75', swapShort: '0.75' });
    const [row] = await t.ctx.db.select().from(instruments).where(eq(instruments.id, created.id));
    expect(row).toMatchObject({ swapLong: '-2.2500', swapShort: '0.7500' });
    const dashboard = (await call('GET', '/api/dashboard/instruments', undefined, client)).json() as Array<{
      name: string;
    }>;
    expect(dashboard.find((i) => i.name === 'SEK_USD')).toMatchObject({ swap_long: '-2.25', swapShort: '0.75' });
  });

  it('refuses a side beyond ±100 or with too many decimals', async () => {
    const res = await call('POST', '/api/admin/instruments', instrument({ name: 'DKK_USD', swapLong: '101' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ swapLong: 'Swap long must be between -100 and 100' });
    const decimals = await call(
      'POST',
      '/api/admin/instruments',
      instrument({ name: 'DKK_USD', swapShort: '0.12345' }),
    );
    expect(decimals.json().errors).toMatchObject({ swapShort: 'Swap short must be a number with at most 4 decimals' });
  });
});

describe('swap calendar (Trade Management)', () => {
  it('ships Wednesday for forex and commodities, Friday for indices and stocks, every day for crypto', async () => {
    const res = await call('GET', '/api/admin/swaps');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      tripleSwapDay: {
        forex: 'wednesday',
        commodity: 'wednesday',
        index: 'friday',
        stock: 'friday',
        crypto: 'none',
      },
      weekends: { forex: false, commodity: false, index: false, stock: false, crypto: true },
    });
  });

  it('changes the categories named, audited; refuses an unknown day; admins only', async () => {
    const res = await call('POST', '/api/admin/swaps', { tripleSwapDay: { index: 'Thursday' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tripleSwapDay).toMatchObject({ index: 'thursday', forex: 'wednesday' });
    const [audit] = await t.ctx.db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
    expect(audit.action).toBe('settings.swaps_update');
    const bad = await call('POST', '/api/admin/swaps', { tripleSwapDay: { forex: 'someday' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose a weekday or none');
    expect((await call('GET', '/api/admin/swaps', undefined, client)).statusCode).toBe(403);
    await call('POST', '/api/admin/swaps', { tripleSwapDay: { index: 'friday' } });
  });
});

describe('rollover time (site settings)', () => {
  it('shows 17:00 New York by default and keeps a time the form sends', async () => {
    const form = (await call('GET', '/api/admin/settings')).json();
    expect(form).toMatchObject({ rolloverTime: '17:00', rolloverTimezone: 'America/New_York' });
    const fields = {
      appName: form.appName,
      appUrl: form.appUrl,
      appCurrency: form.appCurrency,
      demoBalance: form.demoBalance,
      rolloverTime: '22:00',
      rolloverTimezone: 'UTC',
    };
    const save = (f: Record<string, string>) => {
      const body = multipart(f, {});
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/settings',
        headers: { ...body.headers, cookie: admin },
        payload: body.payload,
      });
    };
    const saved = await save(fields);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('GET', '/api/admin/settings')).json()).toMatchObject({
      rolloverTime: '22:00',
      rolloverTimezone: 'UTC',
    });
    const bad = await save({ ...fields, rolloverTime: '25:00', rolloverTimezone: 'Mars/Base' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['rolloverTime', 'rolloverTimezone']);
    expect((await save({ ...fields, rolloverTime: '17:00', rolloverTimezone: 'America/New_York' })).statusCode).toBe(
      200,
    );
  });
});

describe('pricing plan terms', () => {
  it('creates a plan without the new terms as today (no commission, no margin call, swaps paid)', async () => {
    const res = await call('POST', '/api/admin/pricing', { name: 'Plain' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Plain'));
    expect(row).toMatchObject({
      forexCommission: '0.00000000',
      commissionBasis: 'lot',
      marginCallLevel: null,
      swapFree: false,
      swapFreeFee: '0.00000000',
      swapFreeDays: 0,
    });
  });

  it('saves commission, margin call and swap-free terms, keeps them on an edit that omits them, answers snake_case', async () => {
    const res = await call('POST', '/api/admin/pricing', {
      name: 'Islamic',
      forexCommission: '3.5',
      cryptoCommission: 10,
      commissionBasis: 'million',
      commissionCharge: 'open',
      marginCallLevel: 100,
      marginCallRearm: 20,
      swapFree: true,
      swapFreeFee: '2.5',
      swapFreeDays: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Islamic'));
    expect((await call('PUT', `/api/admin/pricing/${row.id}`, { name: 'Islamic', price: '10' })).statusCode).toBe(200);
    const listed = (await call('GET', '/api/dashboard/pricing'))
      .json()
      .data.find((p: { id: number }) => p.id === row.id);
    expect(listed).toMatchObject({
      forex_commission: '3.50000000',
      crypto_commission: '10.00000000',
      index_commission: '0.00000000',
      commission_basis: 'million',
      commission_charge: 'open',
      margin_call_level: 100,
      margin_call_rearm: 20,
      swap_free: true,
      swap_free_fee: '2.50000000',
      swap_free_days: 3,
    });
    // '' turns the margin call off.
    await call('PUT', `/api/admin/pricing/${row.id}`, { name: 'Islamic', marginCallLevel: '' });
    expect((await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.id, row.id)))[0].marginCallLevel).toBe(
      null,
    );
  });

  it('refuses a margin call at or below a stop-out level, negative commissions and unknown choices', async () => {
    const low = await call('POST', '/api/admin/pricing', { name: 'Low', marginCallLevel: 50 });
    expect(low.statusCode).toBe(400);
    expect(low.json().errors).toMatchObject({
      marginCallLevel: 'The margin call level must be above every stop-out level',
    });
    const stopout = await call('POST', '/api/admin/pricing', { name: 'Low', forexStopout: 80, marginCallLevel: 70 });
    expect(stopout.statusCode).toBe(400);
    const bad = await call('POST', '/api/admin/pricing', {
      name: 'Bad',
      forexCommission: '-1',
      commissionCharge: 'never',
      swapFreeDays: 1.5,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['commissionCharge', 'forexCommission', 'swapFreeDays']);
  });
});
