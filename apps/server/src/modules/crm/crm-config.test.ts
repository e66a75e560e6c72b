import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { createTestApp, DEMO_PASSWORD, signIn, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, leads, promoCodes, teamMembers, teams, userProfiles, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/crypto.ts';

let t: TestApp;
const cookies = new Map<number | string, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  await signInDemoRoles(t, cookies, ids);
  // A second agent (made inactive by a test) and a second manager.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const [key, roleId] of [
    ['agent2', 5],
    ['manager2', 2],
  ] as const) {
    const [u] = await t.ctx.db
      .insert(users)
      .values({ fullName: `Other ${key}`, email: `${key}@crmconf.test`, passwordHash, roleId, isEmailVerified: true })
      .returning();
    ids[key] = u.id;
    cookies.set(key, await signIn(t.app, `${key}@crmconf.test`));
  }
});
afterAll(async () => t.close());

type Who = number | string | null;
const call = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: who === null ? {} : { cookie: cookies.get(who)! },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const tag = () => `conf${++seq}x${Date.now().toString(36)}`;

describe('teams', () => {
  const teamOf = async (search: string) => {
    const res = await call(1, 'GET', `/admin/crm-config/teams/api?search=${encodeURIComponent(search)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<{
      id: number;
      name: string;
      code: string | null;
      user_id: number | null;
      manager: { full_name: string } | null;
      members: Array<{ id: number; role_id: number }>;
    }>;
  };

  it('is for admins only', async () => {
    expect((await call(1, 'GET', '/admin/crm-config/teams/api')).statusCode).toBe(200);
    for (const role of [2, 3, 4, 5, 6])
      expect((await call(role, 'GET', '/admin/crm-config/teams/api')).statusCode).toBe(403);
    for (const role of [2, 5])
      expect(
        (await call(role, 'POST', '/admin/crm-config/teams', { name: 'X', userId: ids.manager, userIds: [] }))
          .statusCode,
      ).toBe(403);
    expect((await call(null, 'GET', '/admin/crm-config/teams/api')).statusCode).toBe(401);
  });

  it('adds a team with its manager and agents of both kinds, lists and searches it, edits and deletes it (audited)', async () => {
    const name = tag();
    const add = await call(1, 'POST', '/admin/crm-config/teams', {
      name,
      code: `${name}-C`,
      userId: ids.manager,
      userIds: [{ id: ids.agent }, { id: ids.retention }, { id: ids.agent }],
    });
    expect(add.statusCode, add.body).toBe(201);
    expect(add.json()).toEqual({ message: 'Team added successfully' });
    const [team] = await teamOf(name);
    expect(team).toMatchObject({
      name,
      code: `${name}-C`,
      user_id: ids.manager,
      manager: { full_name: 'Max Manager' },
    });
    expect(team.members.map((m) => m.id).sort()).toEqual([ids.agent, ids.retention].sort());
    expect((await teamOf(`${name}-c`)).map((x) => x.id)).toEqual([team.id]);
    const page = (await call(1, 'GET', '/admin/crm-config/teams/api?page=1&limit=1')).json();
    expect(page.meta).toMatchObject({ per_page: 1, page: 1 });
    expect(page.data).toHaveLength(1);

    // A lead the agent works, to check nothing of it changes with the team.
    const [lead] = await t.ctx.db
      .insert(leads)
      .values({ firstName: name, leadStatus: 'New', agentId: ids.agent, retId: ids.retention })
      .returning();

    const edit = await call(1, 'PUT', `/admin/crm-config/teams/${team.id}`, {
      name: `${name} Two`,
      code: '',
      userId: ids.manager2,
      userIds: [{ id: ids.agent }],
    });
    expect(edit.json()).toEqual({ message: 'Team updated successfully' });
    const [edited] = await teamOf(`${name} Two`);
    expect(edited).toMatchObject({ id: team.id, code: null, manager: { full_name: 'Other manager2' } });
    expect(edited.members.map((m) => m.id)).toEqual([ids.agent]);

    const del = await call(1, 'DELETE', `/admin/crm-config/teams/${team.id}`);
    expect(del.json()).toEqual({ message: 'Team deleted successfully' });
    expect(await teamOf(name)).toEqual([]);
    expect(await t.ctx.db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id))).toEqual([]);
    const [after] = await t.ctx.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(after).toMatchObject({ agentId: ids.agent, retId: ids.retention });
    expect(await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.id, ids.agent))).toHaveLength(1);

    const audit = await t.ctx.db
      .select({ action: auditLogs.action, before: auditLogs.before, after: auditLogs.after })
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'team'), eq(auditLogs.subjectId, team.id)))
      .orderBy(asc(auditLogs.id));
    expect(audit.map((a) => a.action)).toEqual(['team.create', 'team.update', 'team.delete']);
    expect(audit[1].before).toMatchObject({ name, manager_id: ids.manager });
    expect(audit[1].after).toMatchObject({ name: `${name} Two`, manager_id: ids.manager2, member_ids: [ids.agent] });

    expect((await call(1, 'DELETE', `/admin/crm-config/teams/${team.id}`)).statusCode).toBe(404);
    expect(
      (await call(1, 'PUT', `/admin/crm-config/teams/${team.id}`, { name: 'X', userId: ids.manager, userIds: [] }))
        .statusCode,
    ).toBe(404);
  });

  it('requires a name and a manager, with the spec messages', async () => {
    const res = await call(1, 'POST', '/admin/crm-config/teams', { name: ' ', userIds: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ name: 'Name is required', userId: 'Manager is required' });
    for (const userId of ['', -2, 0])
      expect(
        (await call(1, 'POST', '/admin/crm-config/teams', { name: 'A', userId, userIds: [] })).json().errors,
      ).toMatchObject({ userId: 'Manager is required' });
    expect(
      (await call(1, 'POST', '/admin/crm-config/teams', { name: 'A\u0000', userId: ids.manager, userIds: [] }))
        .statusCode,
    ).toBe(400);
  });

  it('refuses a manager who is not an active manager and members who are not active agents', async () => {
    const body = (userId: number, members: number[]) => ({
      name: tag(),
      userId,
      userIds: members.map((id) => ({ id })),
    });
    for (const userId of [ids.agent, ids.admin, ids.client, 999_999]) {
      const res = await call(1, 'POST', '/admin/crm-config/teams', body(userId, []));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: 'Choose an active manager.',
        errors: { userId: 'Choose an active manager.' },
      });
    }
    const wrong = await call(
      1,
      'POST',
      '/admin/crm-config/teams',
      body(ids.manager, [ids.agent, ids.manager2, ids.client]),
    );
    expect(wrong.statusCode).toBe(400);
    const refused = [ids.manager2, ids.client]
      .sort((a, b) => a - b)
      .map((id) => `#${id}`)
      .join(', ');
    expect(wrong.json().message).toBe(`Team members must be active agents or retention agents (not users ${refused}).`);
    expect(wrong.json().errors.userIds).toBe(wrong.json().message);

    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, ids.manager2));
    expect((await call(1, 'POST', '/admin/crm-config/teams', body(ids.manager2, []))).statusCode).toBe(400);
    await t.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, ids.manager2));
    expect(await t.ctx.db.select().from(teams).where(eq(teams.managerId, ids.client))).toEqual([]);
  });

  it('keeps team codes unique whatever their case; a deleted manager shows as none', async () => {
    const code = tag().toUpperCase();
    expect(
      (await call(1, 'POST', '/admin/crm-config/teams', { name: 'Alpha', code, userId: ids.manager2, userIds: [] }))
        .statusCode,
    ).toBe(201);
    const dup = await call(1, 'POST', '/admin/crm-config/teams', {
      name: 'Beta',
      code: code.toLowerCase(),
      userId: ids.manager,
      userIds: [],
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      message: 'Another team has this code.',
      errors: { code: 'Another team has this code.' },
    });

    await t.ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, ids.manager2));
    const [team] = await teamOf(code);
    expect(team.manager).toBeNull();
    await t.ctx.db.update(users).set({ deletedAt: null }).where(eq(users.id, ids.manager2));
  });
});

describe('promo codes', () => {
  it('has none until generated; Generate makes a new random code each time and keeps the old ones as replaced (audited)', async () => {
    expect((await call('manager2', 'GET', '/admin/promo-code')).json()).toEqual({ code: null, created_at: null });
    const first = await call('manager2', 'POST', '/admin/promo-code', {});
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      message: 'Promo code generated successfully',
      code: expect.stringMatching(/^[A-HJKMNP-Z2-9]{8}$/),
    });
    expect((await call('manager2', 'GET', '/admin/promo-code')).json().code).toBe(first.json().code);

    // The spec's payload carries a code: it is accepted and the server makes its own.
    const second = await call('manager2', 'POST', '/admin/promo-code', { code: 'MYOWNCODE' });
    expect(second.statusCode).toBe(201);
    expect(second.json().code).not.toBe('MYOWNCODE');
    expect(second.json().code).not.toBe(first.json().code);
    expect((await call('manager2', 'GET', '/admin/promo-code')).json().code).toBe(second.json().code);
    // No body at all is fine too.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/promo-code',
          headers: { cookie: cookies.get('manager2')! },
        })
      ).statusCode,
    ).toBe(201);

    const rows = await t.ctx.db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.userId, ids.manager2))
      .orderBy(asc(promoCodes.id));
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.replacedAt === null)).toEqual([false, false, true]);
    const audit = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'promo_code.generate'), eq(auditLogs.actorId, ids.manager2)))
      .orderBy(asc(auditLogs.id));
    expect(audit.map((a) => a.after)).toEqual(rows.map((r) => ({ code: r.code })));
    expect(audit[1].before).toEqual({ code: first.json().code });
  });

  it("is each staff member's own; customers and visitors have none; bad input is refused", async () => {
    for (const role of [1, 2, 4, 5, 6]) expect((await call(role, 'GET', '/admin/promo-code')).statusCode).toBe(200);
    expect((await call(3, 'GET', '/admin/promo-code')).statusCode).toBe(403);
    expect((await call(3, 'POST', '/admin/promo-code', {})).statusCode).toBe(403);
    expect((await call(null, 'POST', '/admin/promo-code', {})).statusCode).toBe(401);
    expect((await call(1, 'POST', '/admin/promo-code', { code: 'A\u0000' })).statusCode).toBe(400);
    const mine = (await call(5, 'POST', '/admin/promo-code', {})).json().code;
    expect((await call(6, 'GET', '/admin/promo-code')).json().code).not.toBe(mine);
  });
});

describe('sign-up with a promo code', () => {
  let n = 0;
  const signup = async (promoCode: string | null) => {
    const name = `Promo${++n}x${Date.now().toString(36)}`;
    const email = `${name.toLowerCase()}@example.test`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: `10.9.0.${n}`,
      payload: {
        fullName: `Paula ${name}`,
        email,
        password: 'Secret123!',
        passwordConfirmation: 'Secret123!',
        phone: '+33 1 23 45 67 89',
        birthDate: '1991-02-03',
        country: 'France',
        city: 'Paris',
        address: '1 Rue de Rivoli',
        postalCode: '75001',
        promoCode,
        currency: 'USD',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    const [lead] = await t.ctx.db.select().from(leads).where(eq(leads.linkedUserId, u.id));
    return { user: u, lead, email, name };
  };
  const codeOf = async (who: Who) => (await call(who, 'POST', '/admin/promo-code', {})).json().code as string;
  const listIds = async (who: Who, url: string) => {
    const res = await call(who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<{ id: number }>).map((r) => r.id);
  };

  it("makes a sales agent's sign-up their live sales lead, linked to the customer, whatever the code's case", async () => {
    const code = await codeOf(5);
    const { user, lead, email, name } = await signup(` ${code.toLowerCase()} `);
    expect(user.promoCodeId).not.toBeNull();
    expect(lead).toMatchObject({
      firstName: 'Paula',
      lastName: name,
      email,
      group: 'sales',
      source: 'live',
      leadStatus: 'New',
      agentId: ids.agent,
      retId: null,
      managerId: null,
      userId: null,
      country: 'France',
      city: 'Paris',
    });
    // Agents see contacts masked, so they find the lead by name.
    expect(await listIds(5, `/affiliate/leads/api/sales/All/live?search=${name}`)).toEqual([lead.id]);
    const [history] = (await call(1, 'GET', `/admin/leads/${lead.id}/history`)).json().data;
    expect(history).toMatchObject({
      action: 'lead.signup',
      actor: `Paula ${name}`,
      after: { promo_code: code, agent_id: ids.agent },
    });
  });

  it('gives an affiliate the lead, a retention agent a retention lead, a manager the lead and the customer', async () => {
    const affiliate = await signup(await codeOf(4));
    expect(affiliate.lead).toMatchObject({ userId: ids.affiliate, group: 'sales', agentId: null });
    expect(await listIds(4, `/affiliate/leads/api?search=${encodeURIComponent(affiliate.email)}`)).toEqual([
      affiliate.lead.id,
    ]);

    const retention = await signup(await codeOf(6));
    expect(retention.lead).toMatchObject({ retId: ids.retention, group: 'retentions', agentId: null });
    expect(await listIds(6, `/affiliate/leads/api/retentions/All?search=${retention.name}`)).toEqual([
      retention.lead.id,
    ]);

    const managed = await signup(await codeOf(2));
    expect(managed.lead).toMatchObject({ managerId: ids.manager, group: 'sales' });
    const [profile] = await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, managed.user.id));
    expect(profile.managerId).toBe(ids.manager);
    expect(await listIds(2, `/admin/customers/api/all?search=${encodeURIComponent(managed.email)}`)).toEqual([
      managed.user.id,
    ]);
  });

  it("records an admin's code on the customer without a lead", async () => {
    const code = await codeOf(1);
    const { user, lead } = await signup(code);
    const [row] = await t.ctx.db.select().from(promoCodes).where(eq(promoCodes.code, code));
    expect(user).toMatchObject({ promoCode: code, promoCodeId: row.id });
    expect(lead).toBeUndefined();
  });

  it("signs up with an unknown, replaced or inactive owner's code, recording it and linking nobody", async () => {
    const unknown = await signup('NOSUCHCODE');
    expect(unknown.user).toMatchObject({ promoCode: 'NOSUCHCODE', promoCodeId: null });
    expect(unknown.lead).toBeUndefined();

    const old = await codeOf(5);
    await codeOf(5);
    const replaced = await signup(old);
    expect(replaced.user).toMatchObject({ promoCode: old, promoCodeId: null });
    expect(replaced.lead).toBeUndefined();

    const inactive = await codeOf('agent2');
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, ids.agent2));
    const gone = await signup(inactive);
    expect(gone.lead).toBeUndefined();
    expect(gone.user.promoCodeId).toBeNull();
    await t.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, ids.agent2));

    const none = await signup(null);
    expect(none.user).toMatchObject({ promoCode: null, promoCodeId: null });
    expect(none.lead).toBeUndefined();
  });
});
