import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, ledgerEntries, notifications, orders, users } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let admin2: string;
let client: string;
let walletId: number;
let admin2Id: number;

const price = (bid: number) =>
  t.ctx.market.book.apply([
    { name: 'EUR_USD', bid, ask: bid + 0.0002, closeoutBid: bid, closeoutAsk: bid + 0.0002, time: Date.now() },
  ]);
const call = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function closedTrade(): Promise<number> {
  price(1.1);
  const res = await call(client, 'POST', '/dashboard/orders', { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().order.id as number;
  price(1.102);
  expect((await call(admin, 'POST', '/admin/trades/close', { orderId: id })).statusCode).toBe(200);
  return id;
}
const orderOf = async (id: number) => (await t.ctx.db.select().from(orders).where(eq(orders.id, id)))[0];
const entriesOf = async (id: number) =>
  t.ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, id), eq(ledgerEntries.kind, 'adjustment')));
async function consistent() {
  const { ledger, balance } = await ledgerAndBalance(t, walletId);
  expect(ledger).toBe(balance);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  walletId = u.activeBalanceId!;
  const made = await call(admin, 'POST', '/admin/users', {
    fullName: 'Second Admin',
    email: 'second.admin@example.test',
    password: 'Second12345!',
    roleId: 1,
    whitelist: '',
    isEmailVerified: true,
    isActive: true,
  });
  expect(made.statusCode).toBe(201);
  admin2Id = made.json().user.id;
  admin2 = await signIn(t.app, 'second.admin@example.test', 'Second12345!');
  const put = await call(admin, 'PUT', '/admin/approvals/settings', { trade: '5' });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(() => t.close());

describe('trade edits and voids above the threshold', () => {
  it('an edit of a closed trade moving more than the threshold waits for a second admin; a smaller one does not', async () => {
    const id = await closedTrade();
    const before = await orderOf(id);
    const held = await call(admin, 'PUT', `/admin/trades/${id}`, { closeRate: Number(before.closeRate) + 0.001 });
    expect(held.statusCode, held.body).toBe(202);
    const { approvalId } = held.json();
    expect((await orderOf(id)).proLoss).toBe(before.proLoss);
    expect(await entriesOf(id)).toHaveLength(0);
    // The second admin was told; the request shows 10 USD moved against a 5 USD threshold.
    const told = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, admin2Id));
    expect(told.some((n) => n.title === 'Approval needed' && n.description?.includes(`#${approvalId}`))).toBe(true);
    const list = (await call(admin2, 'GET', '/admin/approvals')).json();
    expect(list.data.find((r: { id: number }) => r.id === approvalId)).toMatchObject({
      kind: 'trade_edit',
      amount_site: '10.00000000',
      threshold: '5.00000000',
      can_decide: true,
    });
    expect((await call(admin, 'PUT', `/admin/trades/${id}`, { closeRate: 1.2 })).statusCode).toBe(409);

    expect((await call(admin, 'POST', `/admin/approvals/${approvalId}/approve`)).statusCode).toBe(403);
    const ok = await call(admin2, 'POST', `/admin/approvals/${approvalId}/approve`);
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await orderOf(id);
    expect(Number(after.proLoss) - Number(before.proLoss)).toBeCloseTo(10, 6);
    const [entry] = await entriesOf(id);
    expect(Number(entry.amount)).toBeCloseTo(10, 6);
    await consistent();

    const small = await call(admin, 'PUT', `/admin/trades/${id}`, { closeRate: Number(after.closeRate) + 0.0001 });
    expect(small.statusCode, small.body).toBe(200);
    expect(await entriesOf(id)).toHaveLength(2);
    await consistent();
  });

  it("an open trade's levels never wait", async () => {
    price(1.1);
    const res = await call(client, 'POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '10000',
    });
    const id = res.json().order.id as number;
    const ok = await call(admin, 'PUT', `/admin/trades/${id}`, { profit: 1.2, loss: 1.05 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call(admin, 'POST', '/admin/trades/close', { orderId: id })).statusCode).toBe(200);
  });

  it('a void waits for a second admin and reverses once under concurrent approvals, with both people audited', async () => {
    const id = await closedTrade();
    const held = await call(admin, 'DELETE', `/admin/trades/${id}`);
    expect(held.statusCode, held.body).toBe(202);
    const { approvalId } = held.json();
    expect((await call(admin, 'DELETE', `/admin/trades/${id}`)).statusCode).toBe(409);
    expect((await orderOf(id)).voidedAt).toBeNull();
    const results = await Promise.all([
      call(admin2, 'POST', `/admin/approvals/${approvalId}/approve`),
      call(admin2, 'POST', `/admin/approvals/${approvalId}/approve`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await orderOf(id)).voidedAt).not.toBeNull();
    expect(await entriesOf(id)).toHaveLength(1);
    await consistent();
    const [voided] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'order.void'), eq(auditLogs.subjectId, id)));
    const [approved] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'approval.approve'), eq(auditLogs.subjectId, approvalId)));
    expect(approved.actorId).toBe(admin2Id);
    expect(voided.actorId).toBe((approved.after as { requestedBy: number }).requestedBy);
  });
});
