import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, ledgerEntries, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { moveMoney } from '../wallets/ledger.ts';

let t: TestApp;
let admin: string;
let walletId: number;

const KEY = 'a-signing-key-of-the-records-0123';
const get = (url: string, cookie = admin) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: { cookie } });
const verify = async () => (await get('/admin/records/verify')).json();

/** Runs a statement with the append-only trigger of the table off: what someone with the database password can do. */
async function tamper(table: 'ledger_entries' | 'audit_logs', statement: ReturnType<typeof sql>) {
  await t.ctx.db.execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_append_only`));
  try {
    await t.ctx.db.execute(statement);
  } finally {
    await t.ctx.db.execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_append_only`));
  }
}

/** A staff adjustment in its own transaction, as the product makes them (the wallet locked, then its entry). */
const deposit = (id: number, amount: string) =>
  t.ctx.db.transaction((tx) =>
    moveMoney(tx, {
      balanceId: id,
      amount,
      kind: 'adjustment',
      refType: 'staff',
      refId: null,
      actorId: null,
      note: 'test',
    }),
  );

beforeAll(async () => {
  t = await createTestApp({ RECORDS_SIGNING_KEY: KEY });
  admin = await signIn(t.app, DEMO.admin);
  const [client] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  walletId = client.activeBalanceId as number;
});
afterAll(() => t.close());

describe('tamper-evident records', () => {
  it('chains every ledger entry per wallet and every audit row, also under concurrent writers', async () => {
    const wallets = (await t.ctx.db.select({ id: balances.id }).from(balances).limit(6)).map((w) => w.id);
    // Twenty movements at once on six wallets, and audit rows beside them.
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => deposit(wallets[i % wallets.length], `${i + 1}.25`)),
      ...Array.from({ length: 5 }, (_, i) =>
        writeAudit(t.ctx.db, { actorId: null, targetUserId: null, action: 'test.concurrent', after: { i }, ip: null }),
      ),
    ]);
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.balanceId, wallets[0]))
      .orderBy(ledgerEntries.chainSeq);
    expect(entries.map((e) => e.chainSeq)).toEqual(entries.map((_, i) => i + 1));
    for (let i = 1; i < entries.length; i++) expect(entries[i].prevHash).toEqual(entries[i - 1].hash);
    const res = await verify();
    expect(res.ok).toBe(true);
    expect(res.ledger.rows).toBeGreaterThan(20);
    expect(res.audit.rows).toBeGreaterThan(4);
    expect(res).toMatchObject({ audit: { firstBroken: null }, ledger: { firstBroken: null } });
  });

  it('names the ledger row changed in the database, or the one after a row removed', async () => {
    await deposit(walletId, '10');
    await deposit(walletId, '20');
    const [last, changed] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.balanceId, walletId))
      .orderBy(sql`${ledgerEntries.chainSeq} desc`)
      .limit(2);
    await tamper('ledger_entries', sql`UPDATE ledger_entries SET amount = amount + 1 WHERE id = ${changed.id}`);
    expect((await verify()).ledger.firstBroken).toBe(changed.id);
    await tamper('ledger_entries', sql`UPDATE ledger_entries SET amount = amount - 1 WHERE id = ${changed.id}`);
    expect((await verify()).ok).toBe(true);

    // Rewriting the hash too moves the break to the next link; removing the row breaks the row after it.
    await tamper('ledger_entries', sql`UPDATE ledger_entries SET note = 'rewritten' WHERE id = ${changed.id}`);
    await tamper(
      'ledger_entries',
      sql`UPDATE ledger_entries
             SET hash = sha256(COALESCE(prev_hash, ''::bytea) || convert_to(ledger_entry_body(ledger_entries), 'UTF8'))
           WHERE id = ${changed.id}`,
    );
    expect((await verify()).ledger.firstBroken).toBe(last.id);
    await tamper('ledger_entries', sql`DELETE FROM ledger_entries WHERE id = ${changed.id}`);
    expect((await verify()).ledger.firstBroken).toBe(last.id);
  });

  it('names the audit row changed in the database; staff other than admins cannot ask', async () => {
    await writeAudit(t.ctx.db, { actorId: null, targetUserId: null, action: 'test.one', after: { a: 1 }, ip: null });
    await writeAudit(t.ctx.db, { actorId: null, targetUserId: null, action: 'test.two', after: { a: 2 }, ip: null });
    const [row] = await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.action, 'test.one'));
    await tamper('audit_logs', sql`UPDATE audit_logs SET after = '{"a": 9}' WHERE id = ${row.id}`);
    const res = await verify();
    expect(res.ok).toBe(false);
    expect(res.audit.firstBroken).toBe(row.id);
    const manager = await signIn(t.app, DEMO.manager);
    expect((await get('/admin/records/verify', manager)).statusCode).toBe(403);
    await tamper('audit_logs', sql`UPDATE audit_logs SET after = '{"a": 1}' WHERE id = ${row.id}`);
    expect((await verify()).audit.firstBroken).toBe(null);
  });

  it('exports signed checkpoints of the heads that later catch a rewritten tail', async () => {
    const other = (
      await t.ctx.db.select({ id: balances.id }).from(balances).where(sql`${balances.id} <> ${walletId}`).limit(1)
    )[0].id;
    await deposit(other, '5');
    const res = await get('/admin/records/checkpoint');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/records-checkpoint-/);
    const cp = res.json();
    expect(cp.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(cp.ledger.find((h: { wallet: number }) => h.wallet === other)).toBeTruthy();
    const check = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/records/checkpoint/verify',
        headers: { cookie: admin },
        payload: body as object,
      });

    // Rows added since are fine.
    await deposit(other, '6');
    expect((await check(cp)).json()).toEqual({ ok: true, signed: true, changed: [] });
    // A forged checkpoint fails its signature; a head rewritten in the database is named.
    expect((await check({ ...cp, at: '2020-01-01T00:00:00.000Z' })).json()).toMatchObject({ ok: false, signed: false });
    const head = cp.ledger.find((h: { wallet: number }) => h.wallet === other);
    await tamper(
      'ledger_entries',
      sql`UPDATE ledger_entries SET hash = sha256(hash) WHERE balance_id = ${other} AND chain_seq = ${head.seq}`,
    );
    expect((await check(cp)).json()).toMatchObject({ ok: false, changed: [`wallet ${other}`] });
    expect((await check({ ...cp, ledger: 'x' })).statusCode).toBe(400);
  });
});
