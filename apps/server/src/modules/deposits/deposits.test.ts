import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  multipart,
  newVerifiedCustomer,
  PNG_BYTES,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, deposits, kycDocuments, users } from '../../db/schema.ts';
import { putSetting, invalidateSettingsCache } from '../settings/service.ts';

let t: TestApp;
let client: string;
let admin: string;
let manager: string;
let realWallet: number;
let demoWallet: number;

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as Record<string, unknown> | undefined });

async function bankDeposit(cookie: string, wallet: number, amount = '100') {
  const res = await inject('POST', '/api/deposits', cookie, { balance_id: wallet, amount, gateway: 'bank' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; paymentLink: string };
}

beforeAll(async () => {
  // The sandbox gateway is on by default only on the embedded database; the suite also runs on PostgreSQL.
  t = await createTestApp({ PAYMENTS_SANDBOX: 'true' });
  client = await signIn(t.app, DEMO.client);
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, u.id));
  realWallet = wallets.find((w) => w.mode === 'real')!.id;
  demoWallet = wallets.find((w) => w.mode === 'demo')!.id;
});
afterAll(() => t.close());

describe('deposit options and requests', () => {
  it('offers the sandbox card, bank and crypto gateways of the demo', async () => {
    const res = await inject('GET', '/api/deposits/gateways', client);
    expect(res.statusCode).toBe(200);
    const values = (res.json() as { data: Array<{ value: string; fee: string }> }).data.map((g) => g.value);
    expect(values).toEqual(expect.arrayContaining(['sandbox', 'bank', 'btc', 'usdt']));
    expect(values).not.toContain('stripe');
  });

  it("refuses bad amounts, demo wallets, other users' wallets and unknown gateways, and writes nothing", async () => {
    const before = await t.ctx.db.select().from(deposits);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ balance_id: realWallet, amount: '1e13', gateway: 'bank' }, 400],
      [{ balance_id: realWallet, amount: 10000000000000, gateway: 'bank' }, 400],
      [{ balance_id: realWallet, amount: '0', gateway: 'bank' }, 400],
      [{ balance_id: realWallet, amount: '-5', gateway: 'bank' }, 400],
      [{ balance_id: realWallet, amount: '10.001', gateway: 'bank' }, 400],
      [{ balance_id: realWallet, gateway: 'bank' }, 400],
      [{ balance_id: realWallet, amount: '10', gateway: 'nope' }, 400],
      [{ balance_id: realWallet, amount: '10', gateway: 'external:1' }, 422],
      [{ balance_id: demoWallet, amount: '10', gateway: 'bank' }, 422],
      [{ balance_id: 999999, amount: '10', gateway: 'bank' }, 404],
    ];
    for (const [payload, status] of cases) {
      const res = await inject('POST', '/api/deposits', client, payload);
      expect(res.statusCode, JSON.stringify(payload) + res.body).toBe(status);
      expect((res.json() as { message: string }).message).toBeTruthy();
    }
    expect(await t.ctx.db.select().from(deposits)).toHaveLength(before.length);
  });

  it('refuses a customer without KYC while the deposit switch is on, with the notice text', async () => {
    const other = await newVerifiedCustomer(t);
    const cookie = await signIn(t.app, other.email, other.password);
    const [w] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, other.id), eq(balances.mode, 'real')));
    const res = await inject('POST', '/api/deposits', cookie, { balance_id: w.id, amount: '50', gateway: 'bank' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Please verify KYC to enable deposit');
    await putSetting(t.ctx.db, 'kyc', { value1: 'off' });
    invalidateSettingsCache();
    try {
      expect(
        (await inject('POST', '/api/deposits', cookie, { balance_id: w.id, amount: '50', gateway: 'bank' })).statusCode,
      ).toBe(200);
    } finally {
      await putSetting(t.ctx.db, 'kyc', { value1: 'on' });
      invalidateSettingsCache();
    }
  });
});

describe('bank deposit', () => {
  it('shows the bank details, takes the transfer details with a proof, and is credited once on approval', async () => {
    const { id, paymentLink } = await bankDeposit(client, realWallet, '100');
    expect(paymentLink).toBe(`/deposits/bank/${id}`);
    // Staff who look after the customer's money are told at once: every admin and the customer's manager.
    for (const staff of [admin, manager]) {
      const notes = (await inject('GET', '/api/notifications', staff)).json().data;
      expect(
        notes.some(
          (n: { title: string; description: string }) =>
            n.title === 'New deposit' && n.description.includes(`(#${id})`),
        ),
      ).toBe(true);
    }
    const detail = (await inject('GET', `/api/deposits/${id}`, client)).json();
    expect(detail.bank.key3).toBe('GB33BUKB20201555555555');
    expect(detail.total).toBe('100.00000000');

    const missing = multipart({ bank_name: 'My Bank', account_name: 'x', account_number: '123' });
    const noProof = await t.app.inject({
      method: 'PUT',
      url: `/api/deposits/bank/${id}`,
      headers: { cookie: client, ...missing.headers },
      payload: missing.payload,
    });
    expect(noProof.statusCode).toBe(400);
    expect(noProof.json().message).toBe('Proof is required');
    const text = multipart(
      { bank_name: 'My Bank', account_name: 'x', account_number: '123' },
      { proof: { data: Buffer.from('<html>not an image</html>'), type: 'image/png' } },
    );
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/deposits/bank/${id}`,
      headers: { cookie: client, ...text.headers },
      payload: text.payload,
    });
    expect(bad.statusCode).toBe(400);

    const form = multipart(
      { bank_name: 'My Bank', account_name: 'Someone Else', account_number: '12345678' },
      { proof: { data: PNG_BYTES } },
    );
    const sent = await t.app.inject({
      method: 'PUT',
      url: `/api/deposits/bank/${id}`,
      headers: { cookie: client, ...form.headers },
      payload: form.payload,
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const list = (await inject('GET', '/api/admin/deposits/api/history', admin)).json();
    const row = list.data.find((d: { id: number }) => d.id === id);
    expect(row.status).toBe('pending');
    expect(row.formattedDescription.accountName).toBe('Chris Client');
    expect(row.proof).toMatch(/^\/api\/files\//);

    // The proof: its owner and staff who may see the customer read it; another customer is told it does not exist.
    expect((await inject('GET', row.proof, client)).statusCode).toBe(200);
    expect((await inject('GET', row.proof, manager)).statusCode).toBe(200);
    const stranger = await newVerifiedCustomer(t);
    const strangerCookie = await signIn(t.app, stranger.email, stranger.password);
    expect((await inject('GET', row.proof, strangerCookie)).statusCode).toBe(404);
    expect((await inject('GET', `/api/deposits/${id}`, strangerCookie)).statusCode).toBe(404);

    const [before] = await t.ctx.db.select().from(balances).where(eq(balances.id, realWallet));
    const approvals = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inject('POST', `/api/admin/deposits/${id}/approve`, i % 2 ? admin : manager),
      ),
    );
    expect(approvals.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(approvals.filter((r) => r.statusCode === 409)).toHaveLength(9);
    const [after] = await t.ctx.db.select().from(balances).where(eq(balances.id, realWallet));
    expect(Number(after.balance) - Number(before.balance)).toBeCloseTo(100, 8);
    const sums = await ledgerAndBalance(t, realWallet);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));

    const history = (await inject('GET', '/api/deposits/history?page=1&limit=15', client)).json();
    const mine = history.data.find((d: { id: number }) => d.id === id);
    expect(mine.status).toBe('approved');
    expect(Number(mine.balance_after)).toBe(Number(after.balance));
    expect((await inject('POST', `/api/admin/deposits/${id}/decline`, admin)).statusCode).toBe(409);
  });

  it('keeps a manager to the customers assigned to them', async () => {
    const other = await newVerifiedCustomer(t);
    await t.ctx.db.insert(kycDocuments).values({ userId: other.id, type: 'passport', status: 'approved' });
    const cookie = await signIn(t.app, other.email, other.password);
    const [w] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, other.id), eq(balances.mode, 'real')));
    const { id } = await bankDeposit(cookie, w.id, '20');
    const seen = (await inject('GET', '/api/admin/deposits/api/history?limit=100', manager))
      .json()
      .data.map((d: { id: number }) => d.id);
    expect(seen).not.toContain(id);
    expect((await inject('POST', `/api/admin/deposits/${id}/approve`, manager)).statusCode).toBe(404);
    expect((await inject('POST', `/api/admin/deposits/${id}/decline`, admin)).statusCode).toBe(200);
    const [d] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, id));
    expect(d.status).toBe('declined');
    expect(Number((await t.ctx.db.select().from(balances).where(eq(balances.id, w.id)))[0].balance)).toBe(0);
  });
});

describe('crypto deposit', () => {
  it("converts the total to the coin at the server's rate and shows a QR of the address; it stays pending", async () => {
    const res = await inject('POST', '/api/deposits', client, {
      balance_id: realWallet,
      amount: '1000',
      gateway: 'btc',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, paymentLink } = res.json();
    expect(paymentLink).toBe(`/deposits/crypto/${id}`);
    const detail = (await inject('GET', `/api/deposits/${id}`, client)).json();
    expect(detail.crypto.coin).toBe('BTC');
    expect(detail.crypto.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(detail.fee).toBe('10.00000000');
    const converted = Number(detail.crypto.convertedAmount);
    expect(converted).toBeGreaterThan(0);
    expect(converted * Number(detail.crypto.rate)).toBeCloseTo(1010, 0);
    expect(detail.status).toBe('pending');
  });
});
