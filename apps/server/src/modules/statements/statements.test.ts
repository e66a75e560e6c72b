import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, users } from '../../db/schema.ts';

let t: TestApp;
let client: string;
let demoId: number;
let realId: number;

const price = (name: string, bid: number, ask: number) =>
  t.ctx.market.book.apply([{ name, bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);
const get = (url: string, cookie = client) => t.app.inject({ url, headers: { cookie } });

/** Opens and closes one XAU/USD trade on the caller's active wallet; returns its id. */
async function closedTrade(): Promise<number> {
  price('XAU_USD', 2650, 2650.3);
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders',
    headers: { cookie: client },
    payload: { type: 'buy', instrument: 'XAU_USD', amount: 1 },
  });
  expect(placed.statusCode).toBe(200);
  const id = placed.json().order.id as number;
  price('XAU_USD', 2660, 2660.3);
  const closed = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders/close',
    headers: { cookie: client },
    payload: { orderId: id, instrument: 'XAU_USD' },
  });
  expect(closed.statusCode).toBe(200);
  return id;
}

const switchTo = (balanceId: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/dashboard/switch-wallet',
    headers: { cookie: client },
    payload: { balanceId },
  });

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, u.id));
  demoId = wallets.find((w) => w.mode === 'demo')!.id;
  realId = wallets.find((w) => w.mode === 'real')!.id;
});
afterAll(() => t.close());

describe('statements by wallet', () => {
  it("lists and exports the chosen wallet's closed trades, the active one by default", async () => {
    expect((await switchTo(demoId)).statusCode).toBe(200);
    const onDemo = await closedTrade();
    expect((await switchTo(realId)).statusCode).toBe(200);
    const onReal = await closedTrade();

    const ids = async (query: string) =>
      (await get(`/api/statements/history${query}`)).json().data.map((d: { id: number }) => d.id);
    // Active wallet (real) when none is named; the demo trade is there when the demo wallet is chosen.
    expect(await ids('')).toContain(onReal);
    expect(await ids('')).not.toContain(onDemo);
    expect(await ids(`?walletId=${demoId}`)).toContain(onDemo);
    expect(await ids(`?walletId=${demoId}`)).not.toContain(onReal);
    expect(await ids(`?walletId=${realId}`)).toContain(onReal);
    expect(await ids('?walletId=')).toContain(onReal);

    const csv = await get(`/api/statements/export?walletId=${demoId}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain(`statement-USD-demo-${demoId}-all-now.csv`);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines.some((l) => l.startsWith(`${onDemo},`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${onReal},`))).toBe(false);
  });

  it("answers 404 for another user's wallet id and 400 for a malformed one", async () => {
    const other = await newVerifiedCustomer(t, 'stmt');
    const [theirs] = await t.ctx.db.select().from(balances).where(eq(balances.userId, other.id));
    for (const url of [
      `/api/statements/history?walletId=${theirs.id}`,
      `/api/statements/export?walletId=${theirs.id}`,
      '/api/statements/history?walletId=999999999',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('Wallet not found.');
    }
    expect((await get('/api/statements/history?walletId=abc')).statusCode).toBe(400);
    expect((await get('/api/statements/export?walletId=-1')).statusCode).toBe(400);
  });
});
