import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, DEMO_PASSWORD, ROLE_EMAIL, signIn, type TestApp } from '../../../test/helpers.ts';
import { FakeVoiso } from '../../../test/fakes/voiso.ts';
import { auditLogs, leads, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/crypto.ts';

const KEY = 'cc7c76b8987a281d0000000000000000000090ab6c3';
let fake: FakeVoiso;
let t: TestApp;
const cookies = new Map<number | string, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  fake = await FakeVoiso.start('cc-test01', KEY, [
    { email: DEMO.admin, ext: '1000', status: 'available' },
    { email: DEMO.agent, ext: '1001', status: 'available' },
    { email: DEMO.retention, ext: '1002', status: 'outbound' },
    { email: 'agent2@calls.test', ext: '1003', status: 'offline' },
  ]);
  // Voiso's answer may take a while on a loaded machine: only the slow-answer check waits past the timeout.
  t = await createTestApp({ VOISO_BASE_URL: fake.baseUrl, VOISO_TIMEOUT_MS: '2000' });
  for (const role of [1, 2, 3, 4, 5, 6]) cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
  for (const [k, email] of Object.entries(DEMO))
    ids[k] = (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
  const [u] = await t.ctx.db
    .insert(users)
    .values({
      fullName: 'Other Agent',
      email: 'agent2@calls.test',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      roleId: 5,
      isEmailVerified: true,
    })
    .returning();
  ids.agent2 = u.id;
  cookies.set('agent2', await signIn(t.app, 'agent2@calls.test'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.failWith = null;
  fake.delayMs = 0;
});

type Who = number | string;
const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie: cookies.get(who)! }, ...(payload ? { payload } : {}) });
const start = (who: Who, body: object) => call(who, 'POST', '/admin/crm/voiso/startCall', body);
const configure = (value1: string, value2: string) =>
  call(1, 'PUT', '/admin/apis/voiso', { key: 'voiso', value1, value2 });

async function lead(extra: Partial<typeof leads.$inferInsert> = {}): Promise<number> {
  const [l] = await t.ctx.db
    .insert(leads)
    .values({
      firstName: `call${++seq}`,
      email: `call${seq}@mail.example.com`,
      phone: `+44 7700 9${String(seq).padStart(5, '0')}`,
      leadStatus: 'New',
      ...extra,
    })
    .returning();
  return l.id;
}
const history = async (leadId: number) =>
  t.ctx.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, leadId)))
    .orderBy(desc(auditLogs.id));

describe('click-to-call without Voiso settings', () => {
  it('is off with the reason, and nothing is sent anywhere', async () => {
    const agents = await call(5, 'GET', '/admin/crm/voiso/agents');
    expect(agents.statusCode).toBe(200);
    expect(agents.json()).toEqual({
      configured: false,
      message: 'Click-to-call is off: add the Voiso cluster id and API key in Trade APIs.',
      data: [],
      me: null,
    });
    const id = await lead({ agentId: ids.agent });
    const res = await start(5, { leadId: id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Click-to-call is off: add the Voiso cluster id and API key in Trade APIs.');
    expect(fake.calls).toEqual([]);
    expect(await history(id)).toEqual([]);
  });

  it('refuses a cluster id that is not a Voiso cluster label', async () => {
    expect((await configure('evil.example.com/steal#', KEY)).statusCode).toBe(200);
    const agents = (await call(1, 'GET', '/admin/crm/voiso/agents')).json();
    expect(agents.configured).toBe(false);
    expect(agents.message).toContain('cluster id in Trade APIs is not valid');
    expect((await start(1, { phone: '+44 20 7946 0000' })).json().message).toContain(
      'cluster id in Trade APIs is not valid',
    );
    expect(fake.calls).toEqual([]);
  });
});

describe('click-to-call with Voiso', () => {
  beforeAll(async () => {
    // Pasted as the whole address: reduced to the cluster label.
    expect((await configure('https://cc-test01.voiso.com', KEY)).statusCode).toBe(200);
  });

  it('answers 502 with the reason when Voiso cannot list its agents', async () => {
    fake.failWith = 503;
    const res = await call(1, 'GET', '/admin/crm/voiso/agents');
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain('HTTP 503');
  });

  it('lists call agents: the whole contact center for admins, only their own entry for agents', async () => {
    const admin = (await call(1, 'GET', '/admin/crm/voiso/agents')).json();
    expect(admin).toMatchObject({
      configured: true,
      message: null,
      me: { email: DEMO.admin, ext: '1000', status: 'available' },
    });
    expect(admin.data).toHaveLength(4);
    expect((await call(6, 'GET', '/admin/crm/voiso/agents')).json()).toEqual({
      configured: true,
      message: null,
      data: [{ email: DEMO.retention, ext: '1002', status: 'outbound' }],
      me: { email: DEMO.retention, ext: '1002', status: 'outbound' },
    });
    expect((await call(2, 'GET', '/admin/crm/voiso/agents')).json().me).toBeNull();
    expect((await call(4, 'GET', '/admin/crm/voiso/agents')).statusCode).toBe(403);
    expect((await call(3, 'GET', '/admin/crm/voiso/agents')).statusCode).toBe(403);
  });

  it("lets a masked agent call their lead by id: Voiso gets the lead's number and id, the lead's history the call", async () => {
    const id = await lead({ agentId: ids.agent, phone: '+44 (7700) 900-123' });
    const res = await start(5, { leadId: id });
    expect(res.statusCode, res.body).toBe(200);
    const sent = fake.startCalls.at(-1)!;
    expect(res.json()).toEqual({ message: 'Call started successfully', call_id: sent.callId });
    expect(sent.query).toMatchObject({
      agent: DEMO.agent,
      number: '447700900123',
      account_id: String(id),
      get_call_id: 'true',
    });
    expect(sent.query.crm).toBeTruthy();
    const [row] = await history(id);
    expect(row).toMatchObject({
      action: 'lead.call',
      actorId: ids.agent,
      after: { agent: DEMO.agent, call_id: sent.callId },
    });
    // The agent's view of the history shows no number.
    const seen = (await call(5, 'GET', `/admin/leads/${id}/history`)).json().data[0];
    expect(JSON.stringify(seen)).not.toContain('900123');
  });

  it('gives 404 for a lead the caller may not see, by id or by number, and sends nothing', async () => {
    const others = await lead({ agentId: ids.agent2, phone: '+44 7700 900555' });
    const sales = await lead({ agentId: ids.agent });
    const gone = await lead({ agentId: ids.agent, deletedAt: new Date() });
    const before = fake.calls.length;
    for (const [who, body] of [
      [5, { leadId: others }],
      [5, { phone: '+44 7700 900555' }],
      [5, { phone: '0044 7700 900555' }],
      [6, { leadId: sales }],
      [5, { leadId: gone }],
      [5, { leadId: 2_000_000_000 }],
      [5, { phone: '+1 555 0100 999' }],
    ] as const) {
      const res = await start(who, body);
      expect(res.statusCode, `${who} ${JSON.stringify(body)}`).toBe(404);
      expect(res.json().message).toBe('Lead not found.');
    }
    expect(fake.calls.length).toBe(before);
    expect(await history(others)).toEqual([]);
    // Their own agent may call it, by number too.
    expect((await start('agent2', { phone: '0044 7700 900555' })).statusCode).toBe(200);
    expect((await history(others))[0]).toMatchObject({ action: 'lead.call', actorId: ids.agent2 });
  });

  it("lets agents ring only their own softphone; admins may name another agent's", async () => {
    const id = await lead({ agentId: ids.agent, retId: ids.retention });
    const res = await start(5, { leadId: id, agentEmail: 'agent2@calls.test' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You can start calls only on your own softphone.');
    expect((await start(5, { leadId: id, agentEmail: DEMO.agent.toUpperCase() })).statusCode).toBe(200);
    expect((await start(6, { leadId: id })).statusCode).toBe(200);
    expect(fake.startCalls.at(-1)!.query.agent).toBe(DEMO.retention);
    expect((await start(1, { leadId: id, agentEmail: 'agent2@calls.test' })).statusCode).toBe(200);
    expect(fake.startCalls.at(-1)!.query.agent).toBe('agent2@calls.test');
  });

  it('lets admins call any number; a number of no lead is audited with its end only', async () => {
    const res = await start(1, { phone: '+1 (212) 132-4040' });
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.startCalls.at(-1)!.query).toMatchObject({ number: '12121324040', agent: DEMO.admin });
    expect(fake.startCalls.at(-1)!.query.account_id).toBeUndefined();
    const [row] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'crm.call'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(row.after).toMatchObject({ agent: DEMO.admin, phone: '******40' });
  });

  it('refuses bad input and a lead without a number before calling Voiso', async () => {
    const before = fake.calls.length;
    expect((await start(1, {})).statusCode).toBe(400);
    expect((await start(1, { leadId: 1, phone: '+44 20 7946 0000' })).statusCode).toBe(400);
    expect((await start(1, { phone: 'call me' })).json().errors).toMatchObject({ phone: 'Invalid phone number' });
    expect((await start(1, { phone: '+44 20 7946 0000', agentEmail: 'not-an-email' })).statusCode).toBe(400);
    const none = await lead({ phone: null });
    const res = await start(2, { leadId: none });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This lead has no phone number that can be dialled.');
    expect(fake.calls.length).toBe(before);
  });

  it("claims nothing when Voiso refuses: its reason as a 502, the attempt in the lead's history", async () => {
    const id = await lead();
    // The manager is no Voiso user.
    const unknown = await start(2, { leadId: id });
    expect(unknown.statusCode).toBe(502);
    expect(unknown.json().message).toBe('Voiso did not start the call: User not found');
    expect((await history(id))[0]).toMatchObject({
      action: 'lead.call_failed',
      after: { agent: DEMO.manager, reason: 'Voiso did not start the call: User not found' },
    });

    fake.failWith = 503;
    const down = await start(1, { leadId: id });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toContain('HTTP 503');

    fake.failWith = null;
    fake.delayMs = 3000;
    const slow = await start(1, { leadId: id });
    expect(slow.statusCode).toBe(502);
    expect(slow.json().message).toContain('did not answer');
    fake.delayMs = 0;

    await configure('cc-test01', 'wrong-key');
    const refused = await start(1, { leadId: id });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('Voiso refused the API key');
    expect((await call(1, 'GET', '/admin/crm/voiso/agents')).statusCode).toBe(502);
    await configure('cc-test01', KEY);
    expect((await history(id)).filter((r) => r.action === 'lead.call')).toEqual([]);
    expect((await history(id)).filter((r) => r.action === 'lead.call_failed')).toHaveLength(4);
  });

  it('refuses a second start on the same softphone while the first is under way', async () => {
    const id = await lead({ agentId: ids.agent });
    fake.delayMs = 150;
    const [a, b] = await Promise.all([start(5, { leadId: id }), start(5, { leadId: id })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().message).toBe(
      'A call is already being started on this softphone. Wait a moment.',
    );
  });
});
