import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO, ledgerAndBalance, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, ledgerEntries } from '../../db/schema.ts';
import { customersKit } from './customers-testing.ts';

let t: TestApp;
const { idOf, call, create, walletsOf, start } = customersKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('balance adjustments', () => {
  it('adds and subtracts through the ledger with the reason, audited; balance = Σ ledger', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    const changed: Array<[number, string]> = [];
    const original = t.ctx.risk.balanceChanged.bind(t.ctx.risk);
    t.ctx.risk.balanceChanged = (walletId: number, balance: string | number) => {
      changed.push([walletId, String(balance)]);
      original(walletId, balance as never);
    };
    try {
      const add = await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: '150.50', type: 'add', reason: 'Bonus' });
      expect(add.statusCode, add.body).toBe(200);
      expect(add.json().message).toBe('Balance updated successfully');
      const sub = await call(1, 'PUT', `/admin/balance/${real.id}`, {
        amount: 50,
        type: 'subtract',
        reason: 'Correction',
      });
      expect(sub.statusCode, sub.body).toBe(200);
    } finally {
      t.ctx.risk.balanceChanged = original;
    }
    expect(changed.map(([w, b]) => [w, Number(b)])).toEqual([
      [real.id, 150.5],
      [real.id, 100.5],
    ]);
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect(Number(balance)).toBe(100.5);
    expect(Number(ledger)).toBe(100.5);
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.balanceId, real.id))
      .orderBy(ledgerEntries.id);
    expect(entries.map((e) => [e.kind, Number(e.amount), e.note, e.actorId])).toEqual([
      ['adjustment', 150.5, 'Bonus', await idOf(DEMO.admin)],
      ['adjustment', -50, 'Correction', await idOf(DEMO.admin)],
    ]);
    const audits = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'balance.adjust'), eq(auditLogs.targetUserId, id)))
      .orderBy(auditLogs.id);
    expect(
      audits.map((a) => [
        Number((a.before as { balance: string }).balance),
        Number((a.after as { balance: string }).balance),
      ]),
    ).toEqual([
      [0, 150.5],
      [150.5, 100.5],
    ]);
  });

  it('refuses to go below zero or below the held margin (400)', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 100, type: 'add', reason: 'Fund' });
    const over = await call(1, 'PUT', `/admin/balance/${real.id}`, {
      amount: '100.01',
      type: 'subtract',
      reason: 'Too much',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('The wallet cannot go below zero or below the margin its open positions hold.');
    await t.ctx.db.update(balances).set({ margin: '80' }).where(eq(balances.id, real.id));
    expect(
      (await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 21, type: 'subtract', reason: 'Into margin' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 20, type: 'subtract', reason: 'Down to margin' }))
        .statusCode,
    ).toBe(200);
    await t.ctx.db.update(balances).set({ margin: '0' }).where(eq(balances.id, real.id));
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect([Number(ledger), Number(balance)]).toEqual([80, 80]);
  });

  it('never lets concurrent subtractions overdraw the wallet', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 100, type: 'add', reason: 'Fund' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 30, type: 'subtract', reason: 'Race' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(7);
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect([Number(ledger), Number(balance)]).toEqual([10, 10]);
  });

  it('is for admins and the customer’s manager only; bad input is a 400', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    const body = { amount: 1, type: 'add', reason: 'x' };
    expect((await call(2, 'PUT', `/admin/balance/${real.id}`, body)).statusCode).toBe(404);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'PUT', `/admin/balance/${real.id}`, body)).statusCode).toBe(403);
    expect((await call(1, 'PUT', '/admin/balance/999999', body)).statusCode).toBe(404);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, type: 'multiply' })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, amount: -5 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, amount: 0 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, reason: '' })).json().errors.reason).toBe(
      'Reason is required',
    );
    const [mgrWallet] = await walletsOf(await idOf(DEMO.client));
    const ok = await call(2, 'PUT', `/admin/balance/${mgrWallet.id}`, {
      amount: 1,
      type: 'add',
      reason: 'Manager bonus',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
