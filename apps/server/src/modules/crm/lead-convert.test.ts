import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, deposits, mailOutbox, userProfiles, users } from '../../db/schema.ts';
import { crmKit } from './crm-testing.ts';

let t: TestApp;
const { ids, call, tag, lead, row, start } = crmKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('notes', () => {
  it('adds notes to leads in scope; they come with the lead, newest first', async () => {
    const l = await lead({ agentId: ids.agent });
    const res = await call(5, 'POST', '/admin/crm/note', { content: 'Call back on Monday morning', leadId: l.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Notes created successfully',
      note: { content: 'Call back on Monday morning', user: { id: ids.agent, full_name: 'Sam Sales' } },
    });
    await call(1, 'POST', '/admin/crm/note', { content: 'Second', leadId: l.id });
    const item = (await call(1, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0];
    expect(item.notes.map((n: { content: string }) => n.content)).toEqual(['Second', 'Call back on Monday morning']);
    expect((await call('agent2', 'POST', '/admin/crm/note', { content: 'x', leadId: l.id })).statusCode).toBe(404);
    expect((await call(4, 'POST', '/admin/crm/note', { content: 'x', leadId: l.id })).statusCode).toBe(403);
    expect((await call(1, 'POST', '/admin/crm/note', { content: 'x', leadId: -2 })).statusCode).toBe(400);
    expect((await call(1, 'POST', '/admin/crm/note', { content: '', leadId: l.id })).statusCode).toBe(400);
    expect((await call(1, 'POST', '/admin/crm/note', { content: 'x', leadId: 999999 })).statusCode).toBe(404);
  });
});

describe('convert lead to user', () => {
  it('creates the customer with wallets, links the lead as a client with its assignment kept; facts come from the customer', async () => {
    const l = await lead({ agentId: ids.agent, retId: ids.retention, managerId: ids.manager, country: 'Spain' });
    expect(
      (await call('agent2', 'POST', '/admin/leads/convertLeadToUser', { id: l.id, password: 'Password123' }))
        .statusCode,
    ).toBe(404);
    expect((await call(5, 'POST', '/admin/leads/convertLeadToUser', { id: l.id, password: 'short' })).statusCode).toBe(
      400,
    );
    const res = await call(5, 'POST', '/admin/leads/convertLeadToUser', { id: l.id, password: 'Password123' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Lead converted successfully');
    const userId = res.json().userId as number;
    expect(await row(l.id)).toMatchObject({
      linkedUserId: userId,
      group: 'clients',
      agentId: ids.agent,
      retId: ids.retention,
      managerId: ids.manager,
    });
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, userId));
    expect(u).toMatchObject({
      roleId: 3,
      email: `${l.name}@mail.example.com`,
      fullName: `${l.name} Lead`,
      isEmailVerified: true,
    });
    // Like every account staff create, it starts verified (email verification is on here): the customer signs in at
    // once with the password staff set, and no verification mail is sent.
    expect(await signIn(t.app, `${l.name}@mail.example.com`, 'Password123')).toMatch(/^sid=/);
    await t.ctx.jobs.idle();
    const mails = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, `${l.name}@mail.example.com`));
    expect(mails.map((m) => m.subject)).toEqual([]);
    expect((await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)))[0]).toMatchObject({
      managerId: ids.manager,
      country: 'Spain',
    });
    const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, userId));
    expect(wallets.map((w) => w.mode).sort()).toEqual(['demo', 'real']);
    expect(
      (await call(1, 'POST', '/admin/leads/convertLeadToUser', { id: l.id, password: 'Password123' })).statusCode,
    ).toBe(409);

    // Role, email verification, last access and deposit dates are read from the customer.
    const seen = new Date('2026-05-01T10:00:00Z');
    await t.ctx.db.update(users).set({ lastSeenAt: seen, isEmailVerified: true }).where(eq(users.id, userId));
    const real = wallets.find((w) => w.mode === 'real')!;
    const dep = (at: string, status: string) => ({
      userId,
      balanceId: real.id,
      gateway: 'bank',
      amount: '100',
      fee: '0',
      total: '100',
      currency: 'USD',
      status,
      reference: `${tag()}`,
      createdAt: new Date(at),
      reviewedAt: new Date(at),
    });
    await t.ctx.db
      .insert(deposits)
      .values([
        dep('2026-04-01T09:00:00Z', 'approved'),
        dep('2026-04-03T09:00:00Z', 'approved'),
        dep('2026-03-01T09:00:00Z', 'declined'),
      ]);
    const item = (await call(1, 'GET', `/affiliate/leads/api/clients/All?search=${l.name}`)).json().data[0];
    expect(item).toMatchObject({
      linked: { id: userId },
      role_id: 3,
      is_email_verified: true,
      last_access: seen.toISOString(),
      ftd_at: '2026-04-01T09:00:00.000Z',
      deposited_at: '2026-04-03T09:00:00.000Z',
    });
    const audit = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'lead.convert'), eq(auditLogs.subjectId, l.id)));
    expect(audit).toHaveLength(1);
  });

  it('needs an email no account uses', async () => {
    const none = await lead({ email: null });
    expect(
      (await call(1, 'POST', '/admin/leads/convertLeadToUser', { id: none.id, password: 'Password123' })).statusCode,
    ).toBe(400);
    const dup = await lead({ email: DEMO.client });
    expect(
      (await call(1, 'POST', '/admin/leads/convertLeadToUser', { id: dup.id, password: 'Password123' })).statusCode,
    ).toBe(409);
    expect((await row(dup.id)).linkedUserId).toBeNull();
    for (const who of [3, 4])
      expect(
        (await call(who, 'POST', '/admin/leads/convertLeadToUser', { id: dup.id, password: 'Password123' })).statusCode,
      ).toBe(403);
  });
});
