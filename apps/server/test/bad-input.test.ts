import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from './helpers.ts';

/**
 * Each input below answered 5xx (PostgreSQL refusing NUL bytes, JSONB refusing lone surrogates, numeric overflow,
 * an unknown currency taken for a missing rate). Each must be a 400 with a message and change nothing.
 */
let t: TestApp;
let admin: string;
let client: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  const c = await newVerifiedCustomer(t, 'badinput');
  client = await signIn(t.app, c.email, c.password);
});
afterAll(async () => t.close());

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

const signupBody = (over: Record<string, unknown>) => ({
  fullName: 'Nina New',
  email: `nina-${Math.random().toString(36).slice(2)}@example.test`,
  password: 'Secret123!',
  passwordConfirmation: 'Secret123!',
  phone: '+33 1 23 45 67 89',
  birthDate: '1991-02-03',
  country: 'France',
  city: 'Paris',
  address: '1 Rue de Rivoli',
  postalCode: '75001',
  promoCode: '',
  currency: 'EUR',
  ...over,
});
const profileBody = (over: Record<string, unknown>) => ({
  fullName: 'Chris Client',
  phone: '+44 20 7946 0000',
  birthDate: '1990-01-01',
  country: 'United Kingdom',
  city: 'London',
  address: '1 Street',
  postalCode: 'N1 1AA',
  ...over,
});
const instrumentBody = (over: Record<string, unknown>) => ({
  name: `ZZ${Math.floor(Math.random() * 1e6)}_USD`,
  base: 'ZZ',
  quote: 'USD',
  category: 'forex',
  tradingview: 'FX',
  leverage: 100,
  tradable: true,
  ...over,
});

type Case = { name: string; method: 'GET' | 'POST' | 'PUT'; url: string; cookie?: () => string; payload?: unknown };

const cases: Case[] = [
  ...['fullName', 'city', 'address', 'postalCode', 'promoCode'].flatMap((f): Case[] => [
    { name: `sign-up ${f} with NUL`, method: 'POST', url: '/api/auth/signup', payload: signupBody({ [f]: NUL }) },
    {
      name: `sign-up ${f} with a lone surrogate`,
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody({ [f]: LONE }),
    },
  ]),
  {
    name: 'profile fullName with NUL',
    method: 'PUT',
    url: '/api/profile/me',
    cookie: () => client,
    payload: profileBody({ fullName: NUL }),
  },
  { name: 'missing translation key with NUL', method: 'POST', url: '/api/translations/en', payload: { key: NUL } },
  {
    name: 'missing translation key with a lone surrogate',
    method: 'POST',
    url: '/api/translations/en',
    payload: { key: LONE },
  },
  {
    name: 'staff fullName with NUL',
    method: 'POST',
    url: '/api/admin/users',
    cookie: () => admin,
    payload: {
      fullName: NUL,
      email: 'nul@example.test',
      password: 'Secret123!',
      roleId: 2,
      isEmailVerified: true,
      isActive: true,
    },
  },
  {
    name: 'currency API key with NUL',
    method: 'PUT',
    url: '/api/admin/apis/currencyAPI',
    cookie: () => admin,
    payload: { key: 'currencyAPI', value1: NUL },
  },
  {
    name: 'instrument tradingview with NUL',
    method: 'POST',
    url: '/api/admin/instruments',
    cookie: () => admin,
    payload: instrumentBody({ tradingview: NUL }),
  },
  {
    name: 'instrument alias with NUL',
    method: 'POST',
    url: '/api/admin/instruments',
    cookie: () => admin,
    payload: instrumentBody({ alias: NUL }),
  },
  {
    name: 'instrument ask of 1e308',
    method: 'POST',
    url: '/api/admin/instruments',
    cookie: () => admin,
    payload: instrumentBody({ bids: 1, asks: 1e308 }),
  },
  {
    name: 'instrument bid of 1e13',
    method: 'POST',
    url: '/api/admin/instruments',
    cookie: () => admin,
    payload: instrumentBody({ bids: '10000000000000', asks: '10000000000001' }),
  },
  {
    name: 'lot preset label with NUL',
    method: 'POST',
    url: '/api/admin/lotSelector',
    cookie: () => admin,
    payload: { lotSelector: [{ label: NUL, value: 1000 }] },
  },
  {
    name: 'lot preset label with a lone surrogate',
    method: 'POST',
    url: '/api/admin/lotSelector',
    cookie: () => admin,
    payload: { lotSelector: [{ label: LONE, value: 1000 }] },
  },
  {
    name: 'order amount of 1e13',
    method: 'POST',
    url: '/api/dashboard/orders',
    cookie: () => client,
    payload: { type: 'buy', instrument: 'EUR_USD', amount: 1e13 },
  },
  {
    name: 'order amount of 1e13 as text',
    method: 'POST',
    url: '/api/dashboard/orders',
    cookie: () => client,
    payload: { type: 'buy', instrument: 'EUR_USD', amount: '10000000000000' },
  },
  {
    name: 'order take-profit of 1e13',
    method: 'POST',
    url: '/api/dashboard/orders',
    cookie: () => client,
    payload: { type: 'buy', instrument: 'EUR_USD', amount: 1000, profit: '10000000000000' },
  },
  {
    name: 'order instrument with NUL',
    method: 'POST',
    url: '/api/dashboard/orders',
    cookie: () => client,
    payload: { type: 'buy', instrument: NUL, amount: 1000 },
  },
  ...['/api/admin/users/api', '/api/admin/mail/api', '/api/admin/instruments/api/forex'].flatMap((u): Case[] => [
    { name: `${u} search for NUL`, method: 'GET', url: `${u}?search=%00`, cookie: () => admin },
    { name: `${u} page 1e20`, method: 'GET', url: `${u}?page=1e20`, cookie: () => admin },
  ]),
  ...['-1', '%00', '%22USD%22', '2026-01-01', 'ZZZ', 'XXXXXXXXXX'].map(
    (q): Case => ({
      name: `rate for quote ${q}`,
      method: 'GET',
      url: `/api/dashboard/rates?quote=${q}`,
      cookie: () => client,
    }),
  ),
  { name: 'candles for a NUL symbol', method: 'GET', url: '/api/market/candles?symbol=%00', cookie: () => client },
];

describe('bad input is a 400 with a message', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const res = await t.app.inject({
      method: c.method,
      url: c.url,
      headers: c.cookie ? { cookie: c.cookie() } : {},
      ...(c.payload ? { payload: c.payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect(res.json().message.length).toBeGreaterThan(0);
  });

  it('names the offending field and why', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: signupBody({ city: NUL }) });
    expect(res.json()).toMatchObject({ errors: { city: 'Contains characters that are not allowed' } });
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie: client },
      payload: { type: 'buy', instrument: 'EUR_USD', amount: 1e13 },
    });
    expect(order.json().errors.amount).toMatch(/at most/);
    const rate = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/rates?quote=ZZZ',
      headers: { cookie: client },
    });
    expect(rate.json().message).toBe('Unknown currency: ZZZ');
  });

  it('takes JSON bodies only, and names a body that is not an object as a whole', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
    const notObject = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '"x"',
    });
    expect(notObject.statusCode).toBe(400);
    expect(Object.keys(notObject.json().errors)).toEqual(['_']);
  });

  it('reads an encoded surrogate in a query as replacement characters, a search like any other', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users/api?search=%ED%A0%80',
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(0);
  });

  it('still answers a real currency', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/dashboard/rates?quote=JPY', headers: { cookie: client } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/dashboard/rates?quote=usd', headers: { cookie: client } })
      ).json(),
    ).toMatchObject({ quote: 'USD' });
  });
});

describe('a value the database refuses', () => {
  let late: TestApp;
  beforeAll(async () => {
    late = await createTestApp(
      {},
      {
        beforeReady: async (app) => {
          // A route whose schema forgot the bound: the number reaches the database, which refuses it.
          await app.register(
            async (scope) => {
              scope.get('/unbounded', { config: { access: 'public' } }, async (req) => {
                const { n } = req.query as { n: string };
                await late.ctx.db.execute(sql`select ${n}::numeric(20,8) as n`);
                return { ok: true };
              });
            },
            { prefix: '/api' },
          );
        },
      },
    );
  });
  afterAll(async () => late.close());

  it('is answered as bad input (400), never a 500', async () => {
    expect((await late.app.inject({ method: 'GET', url: '/api/unbounded?n=1' })).statusCode).toBe(200);
    const res = await late.app.inject({ method: 'GET', url: '/api/unbounded?n=1e20' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A value is not valid or out of range.');
    expect((await late.app.inject({ method: 'GET', url: '/api/unbounded?n=abc' })).statusCode).toBe(400);
  });
});
