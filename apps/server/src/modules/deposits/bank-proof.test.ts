import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, multipart, PNG_BYTES, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, deposits, users } from '../../db/schema.ts';

/** Bank-transfer proofs: who may download them, and approving a bank deposit that has none yet. */
let t: TestApp;
let client: string;
let admin: string;
let manager: string;
let otherManager: string;
let realWallet: number;

const inject = (method: 'GET' | 'POST', url: string, cookie: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie }, payload });

async function bankDeposit(amount: string): Promise<number> {
  const res = await inject('POST', '/api/deposits', client, { balance_id: realWallet, amount, gateway: 'bank' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

async function sendProof(id: number): Promise<void> {
  const form = multipart(
    { bank_name: 'Bank', account_name: 'Demo Client', account_number: '12345678' },
    { proof: { data: PNG_BYTES } },
  );
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/deposits/bank/${id}`,
    headers: { cookie: client, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  const created = await inject('POST', '/api/admin/users', admin, {
    fullName: 'Other Manager',
    email: 'other-manager@example.test',
    password: 'Manager-password-1',
    roleId: 2,
    isEmailVerified: true,
    isActive: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  otherManager = await signIn(t.app, 'other-manager@example.test', 'Manager-password-1');
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  const [wallet] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, u.id), eq(balances.mode, 'real')));
  realWallet = wallet.id;
});
afterAll(async () => t.close());

describe('bank-transfer proof files', () => {
  it("are read by the customer, admins and the customer's own manager; any other manager is told they do not exist", async () => {
    const id = await bankDeposit('25');
    await sendProof(id);
    const history = await inject('GET', '/api/admin/deposits/api/history?limit=50', admin);
    const proof: string = history.json().data.find((d: { id: number }) => d.id === id).proof;
    expect(proof).toMatch(/^\/api\/files\//);
    for (const cookie of [client, admin, manager]) expect((await inject('GET', proof, cookie)).statusCode).toBe(200);
    const other = await inject('GET', proof, otherManager);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('File not found.');
  });
});

describe('approving a bank deposit that awaits its transfer details and proof', () => {
  it('is refused without an override, and allowed with a reason that the audit keeps', async () => {
    const id = await bankDeposit('40');
    const mine = await inject('GET', '/api/deposits/history?page=1&limit=15', client);
    expect(mine.json().data.find((d: { id: number }) => d.id === id).awaiting_proof).toBe(true);
    const refused = await inject('POST', `/api/admin/deposits/${id}/approve`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/waiting for its transfer details and proof/);
    const [still] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, id));
    expect(still.status).toBe('pending');

    const short = await inject('POST', `/api/admin/deposits/${id}/approve`, admin, { overrideReason: 'ok' });
    expect(short.statusCode).toBe(400);

    const reason = 'Seen on the bank statement of 3 May';
    const ok = await inject('POST', `/api/admin/deposits/${id}/approve`, admin, { overrideReason: reason });
    expect(ok.statusCode, ok.body).toBe(200);
    const [done] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, id));
    expect(done.status).toBe('approved');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'deposit.approve'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit.after).toMatchObject({ id, overrideWithoutProof: reason });
  });

  it('needs no override once the proof is in', async () => {
    const id = await bankDeposit('41');
    await sendProof(id);
    const ok = await inject('POST', `/api/admin/deposits/${id}/approve`, manager);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
