import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, DEMO, DEMO_PASSWORD, signIn, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, deposits, leads, mailOutbox, userProfiles, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { putSetting } from '../settings/service.ts';

let t: TestApp;
const cookies = new Map<number | string, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  await signInDemoRoles(t, cookies, ids);
  // A second sales agent, a second retention agent and a second affiliate, for access across owners.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const [key, roleId] of [
    ['agent2', 5],
    ['retention2', 6],
    ['affiliate2', 4],
  ] as const) {
    const [u] = await t.ctx.db
      .insert(users)
      .values({ fullName: `Other ${key}`, email: `${key}@crm.test`, passwordHash, roleId, isEmailVerified: true })
      .returning();
    ids[key] = u.id;
    cookies.set(key, await signIn(t.app, `${key}@crm.test`));
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

const tag = () => `crm${++seq}x${Date.now().toString(36)}`;

/** A lead straight in the database (any group, source, assignment), named so a search finds only it. */
async function lead(extra: Partial<typeof leads.$inferInsert> = {}): Promise<{ id: number; name: string }> {
  const name = tag();
  const [l] = await t.ctx.db
    .insert(leads)
    .values({
      firstName: name,
      lastName: 'Lead',
      email: `${name}@mail.example.com`,
      phone: '+44 7700 900123',
      leadStatus: 'New',
      ...extra,
    })
    .returning();
  return { id: l.id, name };
}
const listIds = async (who: Who, url: string) => {
  const res = await call(who, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ id: number }>).map((r) => r.id);
};
const row = async (id: number) => (await t.ctx.db.select().from(leads).where(eq(leads.id, id)))[0];

describe('sales statuses', () => {
  it('lists the seeded statuses with New the only default, 999 at once; readable by lead workers, not customers', async () => {
    const res = await call(1, 'GET', '/admin/crm-config/sales-statuses/api?page=1&limit=999');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{ status: string; is_default: boolean }>;
    expect(data.map((s) => s.status)).toEqual(
      expect.arrayContaining(['New', 'Contacted', 'Interested', 'Not Interested', 'Call Back', 'No Answer']),
    );
    expect(data.filter((s) => s.is_default).map((s) => s.status)).toEqual(['New']);
    for (const role of [2, 4, 5, 6])
      expect((await call(role, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(200);
    expect((await call(3, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(401);
  });

  it('adds, renames (leads follow), moves the default and deletes; refuses bad input, duplicates, the default and statuses in use', async () => {
    const name = `Hot ${seq++}`;
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: name, isDefault: false })).json(),
    ).toEqual({ message: 'Sales Status added successfully' });
    expect(
      (await call(5, 'POST', '/admin/crm-config/sales-statuses', { status: 'X', isDefault: false })).statusCode,
    ).toBe(403);
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: name, isDefault: false })).statusCode,
    ).toBe(409);
    const bad = await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: '', isDefault: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ status: 'Status is required', isDefault: 'isDefault is required' });
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: 'a_b', isDefault: false })).statusCode,
    ).toBe(400);

    const list = (
      await call(2, 'GET', `/admin/crm-config/sales-statuses/api?search=${encodeURIComponent(name)}`)
    ).json().data;
    const id = list[0].id as number;
    const l = await lead({ leadStatus: name });
    expect(
      (
        await call(2, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: false })
      ).json().message,
    ).toBe('Sales Status updated successfully');
    expect((await row(l.id)).leadStatus).toBe(`${name} Lead`);

    const del = await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain('1 lead has the status');

    // Making it the default takes the flag from New; the default cannot be unset nor deleted.
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: true }))
        .statusCode,
    ).toBe(200);
    const defaults = (await call(1, 'GET', '/admin/crm-config/sales-statuses/api?limit=999'))
      .json()
      .data.filter((s: { is_default: boolean }) => s.is_default);
    expect(defaults.map((s: { id: number }) => s.id)).toEqual([id]);
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: false }))
        .statusCode,
    ).toBe(409);
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).statusCode).toBe(409);
    const newId = (await call(1, 'GET', '/admin/crm-config/sales-statuses/api?search=New'))
      .json()
      .data.find((s: { status: string }) => s.status === 'New').id;
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${newId}`, { status: 'New', isDefault: true }))
        .statusCode,
    ).toBe(200);

    await t.ctx.db.update(leads).set({ leadStatus: 'New' }).where(eq(leads.id, l.id));
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).json()).toEqual({
      message: 'Sales Status deleted successfully',
    });
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).statusCode).toBe(404);
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/999999`, { status: 'Y', isDefault: false })).statusCode,
    ).toBe(404);
  });
});

describe('lead lists', () => {
  it('shows each list its group and source, filtered by status (underscores for spaces) and registered date', async () => {
    const manual = await lead({
      source: 'manual',
      leadStatus: 'Not Interested',
      createdAt: new Date('2026-03-10T12:00:00Z'),
    });
    const live = await lead({ source: 'live' });
    const retained = await lead({ group: 'retentions' });
    const archived = await lead({ group: 'archived' });
    const client = await lead({ group: 'clients' });
    const aff = await lead({ source: 'affiliate', userId: ids.affiliate });
    expect(await listIds(1, '/affiliate/leads/api/sales/All/all?limit=100')).toEqual(
      expect.arrayContaining([manual.id, live.id, aff.id]),
    );
    expect(await listIds(1, '/affiliate/leads/api/sales/All/manual?limit=100')).not.toContain(live.id);
    expect(await listIds(1, '/affiliate/leads/api/sales/All/live?limit=100')).toContain(live.id);
    expect(await listIds(1, `/affiliate/leads/api/sales/Not_Interested/all?search=${manual.name}`)).toEqual([
      manual.id,
    ]);
    expect(await listIds(1, `/affiliate/leads/api/sales/New/all?search=${manual.name}`)).toEqual([]);
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all/2026-03-10/2026-03-10?search=${manual.name}`)).toEqual([
      manual.id,
    ]);
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all/2026-03-11/2026-04-01?search=${manual.name}`)).toEqual(
      [],
    );
    expect(await listIds(1, `/affiliate/leads/api/retentions/All?search=${retained.name}`)).toEqual([retained.id]);
    expect(await listIds(1, `/affiliate/leads/api/archived/All?search=${archived.name}`)).toEqual([archived.id]);
    expect(await listIds(1, `/affiliate/leads/api/clients/All?search=${client.name}`)).toEqual([client.id]);
    expect(await listIds(2, `/affiliate/leads/api/new/All/live?search=${live.name}`)).toEqual([live.id]);
    expect(await listIds(2, `/affiliate/leads/api/new/All/manual?search=${live.name}`)).toEqual([]);
    expect(await listIds(2, `/affiliate/leads/api?search=${aff.name}`)).toEqual([aff.id]);
    expect(await listIds(1, `/affiliate/leads/api?status=New&startDate=2020-01-01&search=${aff.name}`)).toEqual([
      aff.id,
    ]);

    const item = (await call(1, 'GET', `/affiliate/leads/api/sales/All/all?search=${aff.name}`)).json().data[0];
    expect(item).toMatchObject({
      id: aff.id,
      first_name: aff.name,
      last_name: 'Lead',
      email: `${aff.name}@mail.example.com`,
      lead_status: 'New',
      group: 'sales',
      source: 'affiliate',
      user: { id: ids.affiliate, full_name: 'Alex Affiliate' },
      linked: null,
      role_id: null,
      notes: [],
      masked: false,
      ftd_at: null,
    });
  });

  it('refuses bad input with 400', async () => {
    for (const url of [
      '/affiliate/leads/api/sales/All/other',
      '/affiliate/leads/api/sales/All/all/2026-02-30/2026-03-01',
      '/affiliate/leads/api/sales/All/all/2026-03-02/2026-03-01',
      '/affiliate/leads/api/new/All/all',
      '/affiliate/leads/api/clients/All?limit=1000',
      '/affiliate/leads/api/retentions/All?retId=abc',
      '/affiliate/leads/api?startDate=yesterday',
    ])
      expect((await call(1, 'GET', url)).statusCode, url).toBe(400);
  });

  it('keeps each role to its lists and its own leads', async () => {
    const mine = await lead({ agentId: ids.agent });
    const theirs = await lead({ agentId: ids.agent2 });
    const ret = await lead({ group: 'retentions', retId: ids.retention });
    const ret2 = await lead({ group: 'retentions', retId: ids.retention2 });
    const aff = await lead({ source: 'affiliate', userId: ids.affiliate });
    const aff2 = await lead({ source: 'affiliate', userId: ids.affiliate2 });
    const agentSees = await listIds(5, '/affiliate/leads/api/sales/All/all?limit=100');
    expect(agentSees).toContain(mine.id);
    expect(agentSees).not.toContain(theirs.id);
    expect(await listIds('agent2', '/affiliate/leads/api/sales/All/all?limit=100')).toEqual([theirs.id]);
    expect(await listIds(6, `/affiliate/leads/api/retentions/All?search=${ret.name}`)).toEqual([ret.id]);
    expect(await listIds(6, `/affiliate/leads/api/retentions/All?search=${ret2.name}`)).toEqual([]);
    expect(await listIds(4, `/affiliate/leads/api?search=${aff.name}`)).toEqual([aff.id]);
    expect(await listIds(4, `/affiliate/leads/api?search=${aff2.name}`)).toEqual([]);
    // Managers see every lead (docs/decisions.md, CRM).
    expect(await listIds(2, `/affiliate/leads/api/sales/All/all?search=${theirs.name}`)).toEqual([theirs.id]);
    // The agent filters belong to admins and managers.
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all?agentId=${ids.agent2}`)).toEqual([theirs.id]);
    expect(await listIds(1, `/affiliate/leads/api/retentions/All?retId=${ids.retention2}`)).toEqual([ret2.id]);
    expect((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?agentId=${ids.agent}`)).statusCode).toBe(403);
    expect((await call(6, 'GET', `/affiliate/leads/api/retentions/All?retId=${ids.retention}`)).statusCode).toBe(403);
    // Lists by role (menu).
    const refused: Array<[Who, string]> = [
      [6, '/affiliate/leads/api/sales/All/all'],
      [4, '/affiliate/leads/api/sales/All/all'],
      [3, '/affiliate/leads/api/sales/All/all'],
      [5, '/affiliate/leads/api/retentions/All'],
      [5, '/affiliate/leads/api/clients/All'],
      [6, '/affiliate/leads/api/archived/All'],
      [5, '/affiliate/leads/api'],
      [3, '/affiliate/leads/api'],
      [4, '/affiliate/leads/api/clients/All'],
    ];
    for (const [who, url] of refused) expect((await call(who, 'GET', url)).statusCode, `${who} ${url}`).toBe(403);
    expect((await call(null, 'GET', '/affiliate/leads/api/sales/All/all')).statusCode).toBe(401);
  });

  it('masks emails and phones for agents while showUserInfoAgent is off, and cannot be searched by them', async () => {
    const l = await lead({ agentId: ids.agent, email: 'jonathan.doe@mail.example.com', phone: '+44 7700 900187' });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    const masked = (await call(5, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0];
    expect(masked).toMatchObject({ email: 'jooe****@mail.example.com', phone: '******87', masked: true });
    expect(JSON.stringify((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?limit=100`)).json())).not.toContain(
      'jonathan.doe',
    );
    expect(await listIds(5, '/affiliate/leads/api/sales/All/all?search=jonathan.doe')).toEqual([]);
    // The CSV export is the same rows as the screen: masked for the agent, real for an admin.
    const agentCsv = await call(5, 'GET', `/affiliate/leads/api/sales/All/all?format=csv&search=${l.name}`);
    expect(agentCsv.statusCode).toBe(200);
    expect(agentCsv.headers['content-type']).toContain('text/csv');
    expect(agentCsv.body).toContain('jooe****@mail.example.com');
    expect(agentCsv.body).toContain('******87');
    expect(agentCsv.body).not.toContain('jonathan.doe');
    expect((await call(1, 'GET', `/affiliate/leads/api/sales/All/all?format=csv&search=${l.name}`)).body).toContain(
      'jonathan.doe@mail.example.com',
    );
    expect((await call(1, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0].email).toBe(
      'jonathan.doe@mail.example.com',
    );
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'on' });
    expect((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0]).toMatchObject({
      email: 'jonathan.doe@mail.example.com',
      masked: false,
    });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    // A masked agent's form leaves email and phone out; whatever is sent for them, the real ones stay.
    expect((await call(5, 'PUT', `/admin/leads/${l.id}`, { firstName: 'Jon' })).statusCode).toBe(200);
    expect(
      (
        await call(5, 'PUT', `/admin/leads/${l.id}`, {
          firstName: 'Jon',
          email: 'other@example.com',
          phone: '+1 555 0199',
        })
      ).statusCode,
    ).toBe(200);
    expect(await row(l.id)).toMatchObject({
      firstName: 'Jon',
      email: 'jonathan.doe@mail.example.com',
      phone: '+44 7700 900187',
    });
  });
});

describe('add, edit, delete', () => {
  it('adds a lead with the default status (admin: manual; manager: managed by them; affiliate: their own); agents cannot', async () => {
    const res = await call(1, 'POST', '/admin/leads', {
      firstName: 'Nora',
      lastName: 'Added',
      email: 'Nora.Added@Example.com',
      phone: '+34 600 000 001',
      country: 'Spain',
      city: 'Madrid',
      funnelLink: 'https://x.example.com/f',
      reference: 'R1',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Leads added successfully');
    expect(await row(res.json().id)).toMatchObject({
      leadStatus: 'New',
      group: 'sales',
      source: 'manual',
      email: 'nora.added@example.com',
      managerId: null,
    });
    const byManager = (await call(2, 'POST', '/admin/leads', { firstName: 'M', leadStatus: 'Contacted' })).json().id;
    expect(await row(byManager)).toMatchObject({ managerId: ids.manager, leadStatus: 'Contacted' });
    const byAffiliate = (await call(4, 'POST', '/admin/leads', { firstName: 'A' })).json().id;
    expect(await row(byAffiliate)).toMatchObject({ userId: ids.affiliate, source: 'affiliate' });
    for (const who of [3, 5, 6])
      expect((await call(who, 'POST', '/admin/leads', { firstName: 'X' })).statusCode).toBe(403);
    expect((await call(null, 'POST', '/admin/leads', { firstName: 'X' })).statusCode).toBe(401);
    for (const body of [
      {},
      { firstName: '' },
      { firstName: 'X', email: 'nope' },
      { firstName: 'X', country: 'Atlantis' },
      { firstName: 'X', leadStatus: 'Unknown' },
      { firstName: 'X\u0000' },
    ])
      expect((await call(1, 'POST', '/admin/leads', body)).statusCode, JSON.stringify(body)).toBe(400);
  });

  it('edits: admins everything, managers all but the manager, agents the plain fields of their own leads only', async () => {
    const l = await lead({ agentId: ids.agent });
    const full = {
      firstName: 'Edited',
      lastName: 'Lead',
      email: 'edited@example.com',
      phone: '+1 555 0100',
      country: 'Canada',
      city: 'Toronto',
      funnelLink: '',
      reference: 'ref',
      leadSourceId: 'src-1',
      leadStatus: 'Interested',
      managerId: ids.manager,
      agentId: ids.agent2,
      retId: ids.retention,
    };
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, full)).json()).toEqual({
      message: 'Lead edited successfully',
    });
    expect(await row(l.id)).toMatchObject({
      firstName: 'Edited',
      leadStatus: 'Interested',
      managerId: ids.manager,
      agentId: ids.agent2,
      retId: ids.retention,
      leadSourceId: 'src-1',
    });
    expect((await call(2, 'PUT', `/admin/leads/${l.id}`, { ...full, managerId: -2, agentId: -2 })).statusCode).toBe(
      200,
    );
    expect(await row(l.id)).toMatchObject({ managerId: ids.manager, agentId: null });
    // Assignees must have the picker's role.
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, { ...full, agentId: ids.retention })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, { ...full, managerId: -5 })).statusCode).toBe(400);
    // The agent of the lead edits text fields; status and assignment stay.
    await t.ctx.db.update(leads).set({ agentId: ids.agent }).where(eq(leads.id, l.id));
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'on' });
    expect(
      (
        await call(5, 'PUT', `/admin/leads/${l.id}`, {
          ...full,
          firstName: 'ByAgent',
          leadStatus: 'New',
          agentId: -2,
          retId: -2,
        })
      ).statusCode,
    ).toBe(200);
    expect(await row(l.id)).toMatchObject({
      firstName: 'ByAgent',
      leadStatus: 'Interested',
      agentId: ids.agent,
      retId: ids.retention,
    });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    expect((await call('agent2', 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(404);
    expect((await call('retention2', 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(404);
    for (const who of [3, 4]) expect((await call(who, 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(403);
    expect((await call(1, 'PUT', '/admin/leads/999999', full)).statusCode).toBe(404);
    const audits = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, l.id)));
    expect(audits.filter((a) => a.action === 'lead.update')).toHaveLength(3);
    const history = (await call(5, 'GET', `/admin/leads/${l.id}/history`)).json().data;
    expect(history[0]).toMatchObject({ action: 'lead.update', actor: 'Sam Sales' });
    expect(JSON.stringify(history)).not.toContain('edited@example.com');
    expect((await call('agent2', 'GET', `/admin/leads/${l.id}/history`)).statusCode).toBe(404);
  });

  it('deletes softly: hidden from every list, kept in the database; affiliates delete only their own', async () => {
    const l = await lead();
    expect((await call(5, 'DELETE', `/admin/leads/${l.id}`)).statusCode).toBe(403);
    expect((await call(2, 'DELETE', `/admin/leads/${l.id}`)).json()).toEqual({ message: 'Lead deleted successfully' });
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all?search=${l.name}`)).toEqual([]);
    expect((await row(l.id)).deletedAt).not.toBeNull();
    expect((await call(1, 'DELETE', `/admin/leads/${l.id}`)).statusCode).toBe(404);
    const aff = await lead({ userId: ids.affiliate2, source: 'affiliate' });
    expect((await call(4, 'DELETE', `/affiliate/leads/${aff.id}`)).statusCode).toBe(404);
    expect((await call('affiliate2', 'DELETE', `/affiliate/leads/${aff.id}`)).statusCode).toBe(200);
  });
});

describe('bulk moves and assignment', () => {
  it('moves groups as §4 allows, audited; refuses other moves as a whole', async () => {
    const a = await lead();
    const b = await lead();
    const move = (who: Who, ids2: number[], group: string) =>
      call(who, 'PUT', '/admin/leads/bulk', { ids: ids2, data: { group } });
    expect((await move(1, [a.id, b.id], 'retentions')).json()).toEqual({ message: 'Lead moved successfully' });
    expect((await row(a.id)).group).toBe('retentions');
    expect((await move(1, [a.id], 'archived')).statusCode).toBe(200);
    // Archived goes back to sales only; the whole request fails when one lead cannot move.
    expect((await move(1, [a.id, b.id], 'archived')).statusCode).toBe(200);
    expect((await move(1, [a.id], 'retentions')).statusCode).toBe(409);
    expect((await move(2, [a.id, b.id], 'sales')).statusCode).toBe(200);
    expect([(await row(a.id)).group, (await row(b.id)).group]).toEqual(['sales', 'sales']);
    const c = await lead({ group: 'clients' });
    for (const g of ['sales', 'retentions', 'archived']) {
      await t.ctx.db.update(leads).set({ group: 'clients' }).where(eq(leads.id, c.id));
      expect((await move(1, [c.id], g)).statusCode).toBe(200);
    }
    expect((await move(1, [c.id], 'clients')).statusCode).toBe(400);
    const moves = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'lead.move'), eq(auditLogs.subjectId, a.id)));
    expect(moves.map((m) => [m.before, m.after])).toEqual([
      [{ group: 'sales' }, { group: 'retentions' }],
      [{ group: 'retentions' }, { group: 'archived' }],
      [{ group: 'archived' }, { group: 'sales' }],
    ]);
  });

  it('assigns sales and retention agents (admins, managers); -2 unassigns; the selection must be in scope', async () => {
    const a = await lead();
    const b = await lead({ group: 'retentions' });
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id, b.id], data: { agentId: ids.agent } })).json(),
    ).toEqual({ message: 'Agents assigned successfully' });
    expect(
      (await call(2, 'PUT', '/admin/leads/bulk', { ids: [b.id], data: { retId: ids.retention } })).statusCode,
    ).toBe(200);
    expect(await row(b.id)).toMatchObject({ agentId: ids.agent, retId: ids.retention });
    expect((await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id], data: { agentId: -2 } })).statusCode).toBe(200);
    expect((await row(a.id)).agentId).toBeNull();
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id], data: { agentId: ids.retention } })).statusCode,
    ).toBe(400);
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id, 999999], data: { agentId: ids.agent } })).statusCode,
    ).toBe(404);
    expect((await row(a.id)).agentId).toBeNull();
    expect(
      await t.ctx.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'lead.assign_retention'), eq(auditLogs.subjectId, b.id))),
    ).toHaveLength(1);
    for (const body of [
      {},
      { ids: [], data: { group: 'sales' } },
      { ids: [a.id] },
      { ids: [a.id], data: { group: 'sales', agentId: 1 } },
      { ids: ['x'], data: { group: 'sales' } },
      { ids: [a.id], data: { agentId: 'abc' } },
    ])
      expect((await call(1, 'PUT', '/admin/leads/bulk', body)).statusCode, JSON.stringify(body)).toBe(400);
  });

  it('lets agents move their own leads to retentions or archive, never to sales, never assign, never touch others', async () => {
    const mine = await lead({ agentId: ids.agent });
    const theirs = await lead({ agentId: ids.agent2 });
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { agentId: ids.agent2 } })).statusCode,
    ).toBe(403);
    expect(
      (await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { retId: ids.retention } })).statusCode,
    ).toBe(403);
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id, theirs.id], data: { group: 'archived' } }))
        .statusCode,
    ).toBe(404);
    expect((await row(mine.id)).group).toBe('sales');
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'retentions' } })).statusCode,
    ).toBe(200);
    await t.ctx.db.update(leads).set({ retId: ids.retention }).where(eq(leads.id, mine.id));
    expect((await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'sales' } })).statusCode).toBe(
      403,
    );
    expect(
      (await call('retention2', 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'archived' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'archived' } })).statusCode,
    ).toBe(200);
    for (const who of [3, 4])
      expect(
        (await call(who, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'sales' } })).statusCode,
      ).toBe(403);
  });
});

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
