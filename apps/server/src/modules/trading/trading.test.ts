import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, instruments, kycDocuments, ledgerEntries, orders, pricingPlans, users } from '../../db/schema.ts';
import { putSetting } from '../settings/service.ts';
import { depthKit } from './depth-testing.ts';

let t: TestApp;
let client: string;
let walletId: number;
let clientId: number;
const kit = depthKit(() => t);
const { price } = kit;
const wallet = () => kit.wallet(walletId);

const place = (payload: Record<string, unknown>, cookie = client) =>
  t.app.inject({ method: 'POST', url: '/api/dashboard/orders', headers: { cookie }, payload });
const close = (orderId: number, cookie = client) =>
  t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders/close',
    headers: { cookie },
    payload: { orderId, instrument: 'x' },
  });

async function ledgerSum(id = walletId) {
  const [r] = await t.ctx.db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.balanceId, id));
  return dec(r.s);
}
async function openMarginSum(id = walletId) {
  const [r] = await t.ctx.db
    .select({ s: sql<string>`coalesce(sum(${orders.marginUsed}), 0)` })
    .from(orders)
    .where(and(eq(orders.balanceId, id), sql`${orders.closeTime} is null`));
  return dec(r.s);
}

beforeAll(async () => {
  t = await createTestApp();
  ({ client, clientId, walletId } = await kit.demoClient());
});
afterAll(() => t.close());

beforeEach(async () => {
  // Each test starts flat: no open positions, 10,000 USD, fresh prices (gold too).
  await kit.flat(walletId);
  price('XAU_USD', 2650, 2650.3);
});

describe('placing orders', () => {
  it('fills a buy at the ask and holds the margin (EUR/USD, leverage 100 from the Basic plan)', async () => {
    const res = await place({ type: 'buy', instrument: 'EUR_USD', amount: 10000, profit: 1.2, loss: 1.05 });
    expect(res.statusCode).toBe(200);
    const { message, order } = res.json();
    expect(message).toBe('Order Placed Successfully');
    expect(order).toMatchObject({
      type: 'buy',
      instrument: 'EUR_USD',
      base_symbol: 'EUR',
      quote_symbol: 'USD',
      kind: 'forex',
      leverage: 100,
      close_time: null,
    });
    expect(dec(order.open_rate).toString()).toBe('1.1002');
    expect(dec(order.margin_used).toString()).toBe('110.02'); // 1.1002 × 10000 / 100 / 1
    expect(dec(order.spread).toString()).toBe('2'); // (1.1002 − 1.1) × 1 × 10000
    expect(dec(order.profit).toString()).toBe('1.2');
    expect(dec(order.loss).toString()).toBe('1.05');
    const w = await wallet();
    expect(dec(w.margin).toString()).toBe('110.02');
    expect(dec(w.balance).toString()).toBe('10000');
  });

  it('fills a sell at the bid and converts the margin of a JPY-quoted pair', async () => {
    const res = await place({ type: 'sell', instrument: 'USD_JPY', amount: '10000', profit: null, loss: null });
    expect(res.statusCode).toBe(200);
    const { order } = res.json();
    expect(dec(order.open_rate).toString()).toBe('150');
    expect(dec(order.exchange_rate).toString()).toBe('150.01');
    // 150 × 10000 / 100 / 150.01 = 99.993333777…, held rounded up to 8 places
    expect(dec(order.margin_used).toString()).toBe('99.99333378');
  });

  it('ignores any price the client sends', async () => {
    const res = await place({
      type: 'buy',
      instrument: 'EUR_USD',
      amount: 1000,
      profit: null,
      loss: null,
      price: 0.5,
      open_rate: 0.5,
    });
    expect(res.statusCode).toBe(200);
    expect(dec(res.json().order.open_rate).toString()).toBe('1.1002');
  });

  it.each([
    [{ type: 'buy', instrument: 'EUR_USD', amount: 0 }, 422, 'Amount must be greater than 0'],
    [{ type: 'buy', instrument: 'EUR_USD', amount: -5 }, 400, null],
    [{ type: 'buy', instrument: 'EUR_USD', amount: 'abc' }, 400, null],
    [{ type: 'hold', instrument: 'EUR_USD', amount: 1 }, 400, null],
    [{ type: 'buy', instrument: 'NOPE_USD', amount: 1 }, 404, 'Instrument not found.'],
    [{ type: 'buy', instrument: 'EUR_USD', amount: 10000, profit: 1.1 }, 422, 'Take profit must be at least 1.1002.'],
    [{ type: 'buy', instrument: 'EUR_USD', amount: 10000, loss: 1.2 }, 422, 'Stop loss must be between 0 and 1.1002.'],
    [
      { type: 'sell', instrument: 'EUR_USD', amount: 10000, profit: 1.2 },
      422,
      'Take profit must be between 0 and 1.1.',
    ],
    [{ type: 'sell', instrument: 'EUR_USD', amount: 10000, loss: 1.0 }, 422, 'Stop loss must be at least 1.1.'],
    [{ type: 'buy', instrument: 'EUR_USD', amount: 1_000_000 }, 422, 'Insufficient Balance!'],
  ])('refuses %j with %i and changes nothing', async (payload, status, message) => {
    const res = await place(payload);
    expect(res.statusCode).toBe(status);
    if (message) expect(res.json().message).toBe(message);
    const w = await wallet();
    expect(dec(w.margin).toString()).toBe('0');
    expect(await openMarginSum()).toEqual(dec(0));
  });

  it('refuses an order above the free margin with "Insufficient Free Margin!"', async () => {
    // 800,000 EUR at 1.1002 / 100 = 8,801.60 held; the next 200,000 needs 2,200.40 > 10,000 − 8,801.60.
    expect((await place({ type: 'buy', instrument: 'EUR_USD', amount: 800000 })).statusCode).toBe(200);
    const res = await place({ type: 'buy', instrument: 'EUR_USD', amount: 200000 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Insufficient Free Margin!');
  });

  it('refuses a non-tradable instrument', async () => {
    await t.ctx.db.update(instruments).set({ tradable: false }).where(eq(instruments.name, 'GBP_USD'));
    await t.ctx.market.instruments.reload(t.ctx.db);
    price('GBP_USD', 1.27, 1.2702);
    const res = await place({ type: 'buy', instrument: 'GBP_USD', amount: 1000 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This instrument is not tradable.');
    await t.ctx.db.update(instruments).set({ tradable: true }).where(eq(instruments.name, 'GBP_USD'));
    await t.ctx.market.instruments.reload(t.ctx.db);
  });

  it('refuses real-wallet orders without approved KYC while the trade switch is on, allows them when off, and lets demo wallets trade', async () => {
    await t.ctx.db.update(kycDocuments).set({ status: 'pending' }).where(eq(kycDocuments.userId, clientId));
    try {
      expect((await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).statusCode).toBe(200); // the demo wallet
      await t.ctx.db.update(balances).set({ mode: 'real' }).where(eq(balances.id, walletId));
      const res = await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Please verify KYC to enable trading');
      await putSetting(t.ctx.db, 'kyc', { value3: 'off' });
      expect((await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).statusCode).toBe(200);
    } finally {
      await putSetting(t.ctx.db, 'kyc', { value3: 'on' });
      await t.ctx.db.update(balances).set({ mode: 'demo' }).where(eq(balances.id, walletId));
      await t.ctx.db.update(kycDocuments).set({ status: 'approved' }).where(eq(kycDocuments.userId, clientId));
    }
  });

  it('lets only customers place orders', async () => {
    const admin = await signIn(t.app, DEMO.admin);
    expect((await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 }, admin)).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/dashboard/orders',
          payload: { type: 'buy', instrument: 'EUR_USD', amount: 1 },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('what the server remembers between orders', () => {
  // Placing and closing reuse the trader's wallet, plan and KYC state and the open order's terms from memory; the
  // write statement re-checks them, so a change made elsewhere (back office, another server) is never missed.
  it('follows a switch of the active wallet, a plan change and a KYC withdrawal made after the last order', async () => {
    expect((await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).statusCode).toBe(200);

    const [other] = await t.ctx.db
      .insert(balances)
      .values({ userId: clientId, mode: 'demo', currency: 'USD', balance: '5000' })
      .returning();
    await t.ctx.db.update(users).set({ activeBalanceId: other.id }).where(eq(users.id, clientId));
    const onOther = await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
    expect(onOther.statusCode).toBe(200);
    expect(onOther.json().order.balance_id).toBe(other.id);
    await t.ctx.db.update(users).set({ activeBalanceId: walletId }).where(eq(users.id, clientId));
    const back = await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
    expect(back.json().order.balance_id).toBe(walletId);

    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, clientId));
    await t.ctx.db.update(pricingPlans).set({ forexLeverage: 50 }).where(eq(pricingPlans.id, u.pricingTableId!));
    const repriced = await place({ type: 'buy', instrument: 'EUR_USD', amount: 10000 });
    await t.ctx.db.update(pricingPlans).set({ forexLeverage: 100 }).where(eq(pricingPlans.id, u.pricingTableId!));
    expect(repriced.statusCode).toBe(200);
    expect(repriced.json().order.leverage).toBe(50);
    expect(dec(repriced.json().order.margin_used).toString()).toBe('220.04'); // 1.1002 × 10000 / 50

    // The wallet is made real first (KYC governs real money) while the server still remembers it as demo.
    await t.ctx.db.update(balances).set({ mode: 'real' }).where(eq(balances.id, walletId));
    await t.ctx.db.update(kycDocuments).set({ status: 'rejected' }).where(eq(kycDocuments.userId, clientId));
    const refused = await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
    await t.ctx.db.update(kycDocuments).set({ status: 'approved' }).where(eq(kycDocuments.userId, clientId));
    await t.ctx.db.update(balances).set({ mode: 'demo' }).where(eq(balances.id, walletId));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Please verify KYC to enable trading');
    expect(await openMarginSum()).toEqual(dec((await wallet()).margin));
  });

  it('reports an order closed by someone else since, and changes nothing', async () => {
    const { order } = (await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).json();
    // Closed by another server: this one still remembers the order as open.
    await t.ctx.db
      .update(orders)
      .set({ closeTime: new Date(), closeRate: '1.1', proLoss: '0', closeReason: 'admin' })
      .where(eq(orders.id, order.id));
    const before = await wallet();
    const res = await close(order.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This order is already closed.');
    expect(await wallet()).toEqual(before);
    // Put back as it was, so the next test's clean-up closes it normally.
    await t.ctx.db
      .update(orders)
      .set({ closeTime: null, closeRate: null, proLoss: null, closeReason: null })
      .where(eq(orders.id, order.id));
  });

  it("refuses to close another customer's order even when the server remembers it", async () => {
    const { order } = (await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).json();
    const other = await newVerifiedCustomer(t, 'memory');
    const res = await close(order.id, await signIn(t.app, other.email, other.password));
    expect(res.statusCode).toBe(404);
    expect((await t.ctx.db.select().from(orders).where(eq(orders.id, order.id)))[0].closeTime).toBeNull();
  });
});

describe('closing orders', () => {
  it('closes a buy at the bid, books P/L and spread in the ledger and releases the margin', async () => {
    const { order } = (await place({ type: 'buy', instrument: 'EUR_USD', amount: 10000 })).json();
    price('EUR_USD', 1.105, 1.1052);
    const res = await close(order.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order Closed Successfully');
    const closed = res.json().order;
    expect(dec(closed.close_rate).toString()).toBe('1.105');
    expect(closed.close_reason).toBe('manual');
    // (1.105 − 1.1002) × 10000 − 2 = 46
    expect(dec(closed.pro_loss).toString()).toBe('46');
    const w = await wallet();
    expect(dec(w.balance).toString()).toBe('10046');
    expect(dec(w.margin).toString()).toBe('0');
    expect(await ledgerSum()).toEqual(dec(w.balance));
    const kinds = await t.ctx.db
      .select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.refId, order.id));
    expect(kinds.map((k) => [k.kind, dec(k.amount).toString()])).toEqual([
      ['trade_pl', '48'],
      ['spread', '-2'],
    ]);
  });

  it('closes a USD/JPY sell at the ask and converts the result to the wallet currency', async () => {
    const { order } = (await place({ type: 'sell', instrument: 'USD_JPY', amount: 10000 })).json();
    price('USD_JPY', 149.48, 149.5);
    const closed = (await close(order.id)).json().order;
    // ((150 − 149.5) × 10000 − 200) / 149.49
    const expected = dec(5000).minus(200).div('149.49').toDecimalPlaces(8);
    expect(dec(closed.pro_loss).toString()).toBe(expected.toString());
    const w = await wallet();
    expect(await ledgerSum()).toEqual(dec(w.balance));
  });

  it("refuses another user's order, a closed one, and an unknown one", async () => {
    const { order } = (await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).json();
    const other = await signUpCustomer();
    expect((await close(order.id, other)).statusCode).toBe(404);
    expect((await close(order.id)).statusCode).toBe(200);
    const again = await close(order.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order is already closed.');
    expect((await close(987654)).statusCode).toBe(404);
  });
});

describe('changing stop-loss and take-profit', () => {
  it('sets and clears levels within the open-order bounds', async () => {
    const { order } = (await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 })).json();
    const put = (payload: Record<string, unknown>, cookie = client) =>
      t.app.inject({ method: 'PUT', url: `/api/dashboard/orders/${order.id}`, headers: { cookie }, payload });
    let res = await put({ loss: 1.09 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Stop Loss Set Successfully');
    expect(dec(res.json().order.loss).toString()).toBe('1.09');
    res = await put({ profit: 1.15 });
    expect(res.json().message).toBe('Take Profit Set Successfully');
    expect(dec(res.json().order.loss).toString()).toBe('1.09'); // untouched
    res = await put({ loss: 1.2 }); // above the open rate of a buy
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.loss).toMatch(/between 0 and 1.1002/);
    res = await put({ profit: 1.0 });
    expect(res.statusCode).toBe(422);
    res = await put({});
    expect(res.statusCode).toBe(400);
    res = await put({ loss: null });
    expect(res.json().order.loss).toBeNull();
    const other = await signUpCustomer();
    expect((await put({ loss: 1.05 }, other)).statusCode).toBe(404);
  });
});

describe('lists and market information', () => {
  it('lists open and all positions of the active wallet', async () => {
    await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
    const open = (await t.app.inject({ url: '/api/dashboard/orders?status=open', headers: { cookie: client } })).json();
    expect(open.data).toHaveLength(1);
    const all = (await t.app.inject({ url: '/api/dashboard/orders?limit=2', headers: { cookie: client } })).json();
    expect(all.meta.per_page).toBe(2);
    expect(all.data[0].close_time).toBeNull();
  });

  it('keeps favourites per user', async () => {
    const [eur] = await t.ctx.db.select().from(instruments).where(eq(instruments.name, 'EUR_USD'));
    const post = (url: string, id: number) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: client }, payload: { id } });
    expect((await post('/api/dashboard/add-to-favorite', eur.id)).json().message).toBe('Added to favorites');
    expect((await post('/api/dashboard/add-to-favorite', eur.id)).statusCode).toBe(200);
    let favs = (await t.app.inject({ url: '/api/dashboard/get-favorite', headers: { cookie: client } })).json();
    expect(favs).toEqual([expect.objectContaining({ list_id: eur.id, name: 'EUR_USD' })]);
    expect((await post('/api/dashboard/add-to-favorite', 999999)).statusCode).toBe(404);
    expect((await post('/api/dashboard/remove-from-favorite', eur.id)).json().message).toBe('Removed from favorites');
    favs = (await t.app.inject({ url: '/api/dashboard/get-favorite', headers: { cookie: client } })).json();
    expect(favs).toEqual([]);
  });

  it('gives conversion rates and lot modes', async () => {
    const jpy = (await t.app.inject({ url: '/api/dashboard/rates?quote=JPY', headers: { cookie: client } })).json();
    expect(jpy).toEqual({ rate: '150.01', base: 'USD', quote: 'JPY' });
    const usd = (await t.app.inject({ url: '/api/dashboard/rates?quote=usd', headers: { cookie: client } })).json();
    expect(usd.rate).toBe('1');
    const unknown = await t.app.inject({ url: '/api/dashboard/rates?quote=XYZ', headers: { cookie: client } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown currency: XYZ');
    expect((await t.app.inject({ url: '/api/dashboard/rates', headers: { cookie: client } })).statusCode).toBe(400);
    const lots = (await t.app.inject({ url: '/api/dashboard/lot-state/forex', headers: { cookie: client } })).json();
    expect(lots.lotState).toBe('lot');
    expect(lots.lotSelector[0]).toEqual({ label: 'Micro lot (0.01)', value: 1000, lots: 0.01 });
    expect(lots.contractSize).toBe('100000');
    expect(
      (await t.app.inject({ url: '/api/dashboard/lot-state/crypto', headers: { cookie: client } })).json().lotState,
    ).toBe('amount');
    expect(
      (await t.app.inject({ url: '/api/dashboard/lot-state/bonds', headers: { cookie: client } })).statusCode,
    ).toBe(400);
  });
});

describe('statements', () => {
  it('lists closed trades by close date and exports them as CSV', async () => {
    const { order } = (await place({ type: 'buy', instrument: 'XAU_USD', amount: 1 })).json();
    price('XAU_USD', 2660, 2660.3);
    await close(order.id);
    const today = new Date().toISOString().slice(0, 10);
    const hist = (
      await t.app.inject({
        url: `/api/statements/history?dateStart=${today}&dateEnd=${today}`,
        headers: { cookie: client },
      })
    ).json();
    const row = hist.data.find((d: { id: number }) => d.id === order.id);
    expect(row).toMatchObject({ instrument: 'XAU_USD', type: 'buy', status: 'Closed', close_reason: 'manual' });
    // (2660 − 2650.3) × 1 − 0.3 = 9.4
    expect(dec(row.pro_loss).toString()).toBe('9.4');
    const old = (
      await t.app.inject({
        url: '/api/statements/history?dateStart=2020-01-01&dateEnd=2020-01-31',
        headers: { cookie: client },
      })
    ).json();
    expect(old.data).toEqual([]);
    const bad = await t.app.inject({
      url: '/api/statements/history?dateStart=2024-02-01&dateEnd=2024-01-01',
      headers: { cookie: client },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.app.inject({ url: '/api/statements/history?dateStart=yesterday', headers: { cookie: client } }))
        .statusCode,
    ).toBe(400);

    const csv = await t.app.inject({
      url: `/api/statements/export?dateStart=${today}&dateEnd=${today}`,
      headers: { cookie: client },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="statement-/);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,Open Time,Close Time,Instrument,Type,Amount,Open Rate,Close Rate,Spread,Profit/Loss,Status',
    );
    expect(lines.some((l) => l.startsWith(`${order.id},`) && l.includes('XAU_USD') && l.includes('9.4'))).toBe(true);
    expect((await t.app.inject({ url: '/api/statements/export' })).statusCode).toBe(401);
  });
});

describe('concurrency', () => {
  it('never lets simultaneous orders exceed the free margin', async () => {
    // Each order holds 1,100.20 and starts 20 down (its spread); after eight the free margin is
    // 10,000 − 8,801.60 − 160 = 1,038.40, too little for a ninth.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => place({ type: 'buy', instrument: 'EUR_USD', amount: 100000 })),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok).toBe(8);
    expect(results.filter((r) => r.statusCode === 422).every((r) => /Insufficient/.test(r.json().message))).toBe(true);
    const w = await wallet();
    expect(dec(w.margin)).toEqual(await openMarginSum());
    expect(dec(w.margin).lte(w.balance)).toBe(true);
  });
});

async function signUpCustomer(): Promise<string> {
  const { email, password } = await newVerifiedCustomer(t, 'trader');
  return signIn(t.app, email, password);
}
