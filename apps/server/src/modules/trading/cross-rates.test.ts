import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, instruments, users } from '../../db/schema.ts';
import { getBranding } from '../settings/service.ts';
import type { RiskService } from '../../engine/risk-service.ts';

/**
 * Every instrument against every wallet currency the branding offers: a wallet in any of them gets a rate for the
 * instrument's quote currency (directly, through a cross rate, or for HKD through its USD rate), and a EUR wallet
 * opens and closes a small market order on each instrument. Markets are pinned open (MARKET_HOURS=open).
 */
let t: TestApp;
let currencies: string[];
const cookies = new Map<string, string>();
const wallets = new Map<string, number>();

async function signUp(currency: string): Promise<void> {
  const email = `cross-${currency.toLowerCase()}@example.test`;
  const password = 'Password123!';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      fullName: `Wallet ${currency}`,
      email,
      password,
      passwordConfirmation: password,
      phone: '+44 20 7946 0999',
      birthDate: '1990-01-01',
      country: 'United Kingdom',
      city: 'London',
      address: '1 Street',
      postalCode: 'N1 1AA',
      currency,
    },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  const [u] = await t.ctx.db
    .update(users)
    .set({ isEmailVerified: true })
    .where(eq(users.email, email))
    .returning({ active: users.activeBalanceId });
  cookies.set(currency, await signIn(t.app, email, password));
  // Sign-up makes the demo wallet, in the chosen currency, the active one: trading on it needs no KYC.
  wallets.set(currency, u.active!);
}

beforeAll(async () => {
  t = await createTestApp({ PAYMENTS_SANDBOX: 'true' });
  currencies = (await getBranding(t.ctx.db)).appCurrencies;
  for (const c of currencies) await signUp(c);
  // A sign-up per wallet currency: slow password hashing on a busy machine.
}, 180_000);
afterAll(() => t.close());

const rateOf = (currency: string, quote: string) =>
  t.app.inject({ url: `/api/dashboard/rates?quote=${quote}`, headers: { cookie: cookies.get(currency)! } });
const mid = (name: string) => {
  const q = t.ctx.market.book.get(name)!;
  return (q.bid + q.ask) / 2;
};

describe('conversion rates for every instrument and wallet currency', () => {
  it('the branding offers EUR and GBP wallets beside USD', () => {
    expect(currencies).toEqual(expect.arrayContaining(['USD', 'EUR', 'GBP']));
  });

  it('answers 200 with a positive rate for every instrument in every wallet currency', async () => {
    const failures: string[] = [];
    for (const currency of currencies)
      for (const i of t.ctx.market.instruments.list()) {
        const res = await rateOf(currency, i.quote);
        const rate = res.statusCode === 200 ? Number(res.json().rate) : Number.NaN;
        if (!(rate > 0)) failures.push(`${currency} wallet, ${i.name}: ${res.statusCode} ${res.body}`);
      }
    expect(failures).toEqual([]);
  });

  it('crosses EUR and GBP to CNH and CAD through USD, and prices HKD from its USD rate', async () => {
    const eurCnh = (await rateOf('EUR', 'CNH')).json();
    expect(eurCnh).toMatchObject({ base: 'EUR', quote: 'CNH' });
    expect(Number(eurCnh.rate)).toBeCloseTo(mid('EUR_USD') * mid('USD_CNH'), 6);
    const gbpCad = (await rateOf('GBP', 'CAD')).json();
    expect(Number(gbpCad.rate)).toBeCloseTo(mid('GBP_USD') * mid('USD_CAD'), 6);
    expect(Number((await rateOf('USD', 'HKD')).json().rate)).toBe(7.8);
    expect(Number((await rateOf('EUR', 'HKD')).json().rate)).toBeCloseTo(mid('EUR_USD') * 7.8, 6);
    const unknown = await rateOf('EUR', 'XYZ');
    expect(unknown.statusCode).toBe(400);
  });
});

describe('a EUR wallet trades every instrument', () => {
  it('opens and closes a small market order on each, with margin and P/L in EUR', async () => {
    const cookie = cookies.get('EUR')!;
    const walletId = wallets.get('EUR')!;
    const failures: string[] = [];
    for (const i of t.ctx.market.instruments.list()) {
      if (!i.tradable) continue;
      const amount = i.category === 'forex' ? 1000 : 0.1;
      const opened = await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/orders',
        headers: { cookie },
        payload: { type: 'buy', instrument: i.name, amount },
      });
      if (opened.statusCode !== 200) {
        failures.push(`open ${i.name}: ${opened.statusCode} ${opened.body}`);
        continue;
      }
      const { order } = opened.json();
      const expected = i.quote === 'EUR' ? 1 : Number((await rateOf('EUR', i.quote)).json().rate);
      // The margin is converted from the quote currency at the rate the dialog shows.
      if (Math.abs(Number(order.exchange_rate) / expected - 1) > 1e-6)
        failures.push(`${i.name}: exchange rate ${order.exchange_rate}, dialog ${expected}`);
      const closed = await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/orders/close',
        headers: { cookie },
        payload: { orderId: order.id, instrument: i.name },
      });
      if (closed.statusCode !== 200) failures.push(`close ${i.name}: ${closed.statusCode} ${closed.body}`);
    }
    expect(failures).toEqual([]);
    const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, walletId));
    expect(w.currency).toBe('EUR');
    expect(dec(w.margin).isZero()).toBe(true);
    // Every close was booked: the balance is the sum of its ledger, and the spreads cost something.
    const { ledger, balance } = await ledgerAndBalance(t, walletId);
    expect(dec(ledger).eq(balance)).toBe(true);
    expect(dec(balance).lt(10000)).toBe(true);
  });
});

describe('the risk engine converts through cross rates', () => {
  it("values a EUR wallet's USD/CNH position in EUR at EUR/USD × USD/CNH, tick by tick", async () => {
    const cookie = cookies.get('EUR')!;
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie },
      payload: { type: 'buy', instrument: 'USD_CNH', amount: 10000 },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const { order } = opened.json();
    await (t.ctx.risk as RiskService).idle();
    const bid = Number(order.open_rate) + 0.05;
    t.ctx.market.book.apply([
      { name: 'USD_CNH', bid, ask: bid + 0.0012, closeoutBid: bid, closeoutAsk: bid + 0.0012, time: Date.now() },
    ]);
    const conversion = mid('EUR_USD') * mid('USD_CNH');
    // (bid − open) × amount − spread, in CNH, over CNH per EUR
    const expected = ((bid - Number(order.open_rate)) * 10000 - Number(order.spread)) / conversion;
    const pl = (t.ctx.risk as RiskService).engine.positionPl(order.id);
    expect(pl).not.toBeNull();
    expect(pl!).toBeCloseTo(expected, 4);
    const closed = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders/close',
      headers: { cookie },
      payload: { orderId: order.id, instrument: 'USD_CNH' },
    });
    expect(closed.statusCode).toBe(200);
    expect(Number(closed.json().order.pro_loss)).toBeCloseTo(expected, 2);
  });
});

describe('deposits convert through cross rates', () => {
  it('quotes a bitcoin deposit to a EUR wallet through USD', async () => {
    const client = await signIn(t.app, DEMO.client);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
    const [eur] = await t.ctx.db
      .insert(balances)
      .values({ userId: u.id, mode: 'real', currency: 'EUR', balance: '0' })
      .returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/deposits',
      headers: { cookie: client },
      payload: { balance_id: eur.id, amount: '1000', gateway: 'btc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = (await t.app.inject({ url: `/api/deposits/${res.json().id}`, headers: { cookie: client } })).json();
    expect(detail.crypto.coin).toBe('BTC');
    // EUR per BTC = BTC/USD ÷ EUR/USD
    expect(Number(detail.crypto.rate)).toBeCloseTo(mid('BTC_USD') / mid('EUR_USD'), 2);
  });
});

describe('a rate that is missing', () => {
  it('answers 503 naming both currencies, and the order is refused with the same words', async () => {
    // A new instrument staff added, not priced yet: its quote currency is known, nothing converts it.
    await t.ctx.db
      .insert(instruments)
      .values({ name: 'ZAR_QQQ', base: 'ZAR', quote: 'QQQ', category: 'forex', digits: 5 });
    await t.ctx.market.instruments.reload(t.ctx.db);
    const res = await rateOf('EUR', 'QQQ');
    expect(res.statusCode).toBe(503);
    const message = 'No conversion rate from QQQ to EUR is available right now. Please try again in a moment.';
    expect(res.json().message).toBe(message);
    t.ctx.market.book.apply([{ name: 'ZAR_QQQ', bid: 2, ask: 2.001, closeoutBid: 2, closeoutAsk: 2.001, time: 1 }]);
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie: cookies.get('EUR')! },
      payload: { type: 'buy', instrument: 'ZAR_QQQ', amount: 1000 },
    });
    expect(order.statusCode).toBe(503);
    expect(order.json().message).toBe(message);
  });
});
