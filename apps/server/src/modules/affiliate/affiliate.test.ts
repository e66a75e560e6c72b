import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { LEAD_INTAKE_PER_MINUTE, LEAD_INTAKE_WRONG_KEYS } from '@platform/domain';
import { createTestApp, DEMO, DEMO_PASSWORD, ROLE_EMAIL, signIn, type TestApp } from '../../../test/helpers.ts';
import { affiliateApiKeys, auditLogs, leads, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { putSetting } from '../settings/service.ts';

let t: TestApp;
const cookies = new Map<number | string, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of [1, 2, 3, 4, 5, 6]) cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
  ids.affiliate = (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.affiliate)))[0].id;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const key of ['affiliate2', 'affiliate3']) {
    const [u] = await t.ctx.db
      .insert(users)
      .values({ fullName: `Other ${key}`, email: `${key}@aff.test`, passwordHash, roleId: 4, isEmailVerified: true })
      .returning();
    ids[key] = u.id;
    cookies.set(key, await signIn(t.app, `${key}@aff.test`));
  }
});
afterAll(async () => t.close());

type Who = number | string | null;
const call = (who: Who, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: who === null ? {} : { cookie: cookies.get(who)! },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const generate = async (who: Who): Promise<string> => {
  const res = await call(who, 'POST', '/affiliate/api');
  expect(res.statusCode, res.body).toBe(201);
  return res.json().key as string;
};

const intake = (key: string | null, payload: unknown, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/affiliate/leads/intake',
    remoteAddress,
    headers: key === null ? {} : { 'x-api-key': key },
    payload: payload as object,
  });

const email = () => `intake${++seq}x${Date.now().toString(36)}@leads.example.com`;
const leadOf = async (id: number) => (await t.ctx.db.select().from(leads).where(eq(leads.id, id)))[0];
const listIds = async (who: Who, url = '/affiliate/leads/api?limit=100') => {
  const res = await call(who, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ id: number }>).map((r) => r.id);
};

describe('affiliate API key', () => {
  it("is the affiliate's alone: other roles cannot read or generate one", async () => {
    for (const role of [1, 2, 3, 5, 6]) {
      expect((await call(role, 'POST', '/affiliate/api')).statusCode, `role ${role}`).toBe(403);
      expect((await call(role, 'GET', '/affiliate/api')).statusCode, `role ${role}`).toBe(403);
    }
    expect((await call(null, 'POST', '/affiliate/api')).statusCode).toBe(401);
    expect((await t.ctx.db.select().from(affiliateApiKeys)).length).toBe(0);
  });

  it('starts with none; generating shows the key once and keeps only its hash and first characters', async () => {
    expect((await call(4, 'GET', '/affiliate/api')).json()).toEqual({ key: null, prefix: null, created_at: null });
    const res = await call(4, 'POST', '/affiliate/api');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('API key generated successfully');
    expect(body.key).toMatch(/^ak_[A-Za-z0-9_-]{40}$/);
    expect(body.key.startsWith(body.prefix)).toBe(true);
    expect((await call(4, 'GET', '/affiliate/api')).json()).toEqual({
      key: null,
      prefix: body.prefix,
      created_at: body.created_at,
    });
    const [row] = await t.ctx.db.select().from(affiliateApiKeys).where(eq(affiliateApiKeys.userId, ids.affiliate));
    expect(row.keyHash).not.toContain(body.key);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    const audits = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'affiliate.api_key_generate'), eq(auditLogs.actorId, ids.affiliate)));
    expect(audits.length).toBe(1);
    expect(JSON.stringify(audits[0])).not.toContain(body.key);
  });

  it('rotation stops the old key at once; the new one works', async () => {
    const old = await generate(4);
    expect((await intake(old, { fullName: 'Rita Old', email: email() })).statusCode).toBe(201);
    const fresh = await generate(4);
    const refused = await intake(old, { fullName: 'Rita Old', email: email() });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('This API key is not valid. Generate a new key on the API Key page.');
    expect((await intake(fresh, { fullName: 'Rita New', email: email() })).statusCode).toBe(201);
    expect(
      (await t.ctx.db.select().from(affiliateApiKeys).where(eq(affiliateApiKeys.userId, ids.affiliate))).length,
    ).toBe(1);
  });
});

describe('lead intake', () => {
  let key: string;
  beforeAll(async () => {
    key = await generate(4);
  });

  it('refuses a missing or wrong key with 401 and a message, before reading the body', async () => {
    const missing = await intake(null, { fullName: 'No Key', email: email() });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe('Send your API key in the X-API-Key header.');
    const wrong = await intake(`${key.slice(0, -2)}zz`, { fullName: 'Bad Key', email: email() });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/not valid/);
    // A session cookie is not a key: the route never reads it.
    const cookie = await t.app.inject({
      method: 'POST',
      url: '/api/affiliate/leads/intake',
      headers: { cookie: cookies.get(4)! },
      payload: { fullName: 'Cookie', email: email() },
    });
    expect(cookie.statusCode).toBe(401);
    // Not even an invalid body is looked at without a key.
    expect((await intake(null, { email: 'not-an-email' })).statusCode).toBe(401);
  });

  it("creates the affiliate's lead (as if added on screen), audited as coming through the API", async () => {
    const e = email();
    const res = await intake(key, {
      firstName: 'Hannah',
      lastName: 'Brown',
      email: e.toUpperCase(),
      phone: '+44 7700 900123',
      country: 'United Kingdom',
      city: 'Leeds',
      funnelLink: 'https://landing.example.com/offer',
      reference: 'campaign-42',
      leadSourceId: 'click-8812',
      unknownField: 'ignored',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Lead received', created: true });
    const l = await leadOf(res.json().id);
    expect(l).toMatchObject({
      firstName: 'Hannah',
      lastName: 'Brown',
      email: e,
      source: 'affiliate',
      userId: ids.affiliate,
      group: 'sales',
      leadStatus: 'New',
      managerId: null,
      agentId: null,
      reference: 'campaign-42',
      leadSourceId: 'click-8812',
      country: 'United Kingdom',
    });
    expect(await listIds(4)).toContain(l.id);
    expect(await listIds(1)).toContain(l.id); // Affiliate Leads of the back office
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, l.id)));
    expect(audit).toMatchObject({ action: 'lead.create', actorId: ids.affiliate });
    expect(audit.after).toMatchObject({ via: 'api', api_key: key.slice(0, 10), email: e });
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('splits a full name; refuses bad fields with 400 and their messages', async () => {
    const ok = await intake(key, { fullName: 'Tom  van der Berg', email: email() });
    expect(ok.statusCode).toBe(201);
    expect(await leadOf(ok.json().id)).toMatchObject({ firstName: 'Tom', lastName: 'van der Berg' });
    const cases: Array<[unknown, string]> = [
      [{ email: email() }, 'firstName'],
      [{ fullName: 'A B', email: 'not-an-email' }, 'email'],
      [{ fullName: 'A B' }, 'email'],
      [{ fullName: 'A\u0000B', email: email() }, 'fullName'],
      [{ fullName: 'A B', email: email(), country: 'Atlantis' }, 'country'],
      [{ fullName: 'A B', email: email(), phone: 'call me' }, 'phone'],
      [{ fullName: 'x'.repeat(300), email: email() }, 'fullName'],
    ];
    for (const [payload, field] of cases) {
      const res = await intake(key, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(payload)).toContain(field);
    }
    expect((await intake(key, [1, 2])).statusCode).toBe(400);
  });

  it('is idempotent: the same email again answers 200 with the same id and creates nothing', async () => {
    const e = email();
    const first = await intake(key, { fullName: 'Ida Empotent', email: e });
    expect(first.statusCode).toBe(201);
    const again = await intake(key, { fullName: 'Ida Changed', email: e.toUpperCase(), phone: '+44 7700 900999' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'Lead already received', id: first.json().id, created: false });
    const rows = await t.ctx.db.select().from(leads).where(sql`lower(${leads.email}) = ${e}`);
    expect(rows.length).toBe(1);
    expect(rows[0].firstName).toBe('Ida');
    // A lead the affiliate deleted is gone: the same email makes a new one.
    expect((await call(4, 'DELETE', `/affiliate/leads/${first.json().id}`)).statusCode).toBe(200);
    const after = await intake(key, { fullName: 'Ida Back', email: e });
    expect(after.statusCode).toBe(201);
    expect(after.json().id).not.toBe(first.json().id);
  });

  it('makes one lead of concurrent identical posts', async () => {
    const e = email();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => intake(key, { fullName: 'Con Current', email: e })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect((await t.ctx.db.select().from(leads).where(sql`lower(${leads.email}) = ${e}`)).length).toBe(1);
  });

  it('keeps affiliates apart: each sees, deletes and deduplicates only their own leads', async () => {
    const key2 = await generate('affiliate2');
    const e = email();
    const mine = await intake(key, { fullName: 'Shared Person', email: e });
    const theirs = await intake(key2, { fullName: 'Shared Person', email: e });
    // The same person from two affiliates is two leads: each affiliate owns what they brought.
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect((await leadOf(theirs.json().id)).userId).toBe(ids.affiliate2);
    const aList = await listIds(4);
    const bList = await listIds('affiliate2');
    expect(aList).toContain(mine.json().id);
    expect(aList).not.toContain(theirs.json().id);
    expect(bList).toEqual([theirs.json().id]);
    expect((await call(4, 'DELETE', `/affiliate/leads/${theirs.json().id}`)).statusCode).toBe(404);
    expect((await call(4, 'GET', '/affiliate/api')).json().prefix).not.toBe(
      (await call('affiliate2', 'GET', '/affiliate/api')).json().prefix,
    );
  });

  it("stops a deactivated affiliate's key", async () => {
    const key3 = await generate('affiliate3');
    expect((await intake(key3, { fullName: 'Before Stop', email: email() })).statusCode).toBe(201);
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, ids.affiliate3));
    expect((await intake(key3, { fullName: 'After Stop', email: email() })).statusCode).toBe(401);
    await t.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, ids.affiliate3));
  });

  it('takes the site leads webhook key: live leads with no affiliate, deduplicated among them', async () => {
    await putSetting(t.ctx.db, 'webhookApiKeyLeads', { value1: 'site-leads-key-123' });
    const e = email();
    const res = await intake('site-leads-key-123', { fullName: 'Live Lead', email: e });
    expect(res.statusCode, res.body).toBe(201);
    expect(await leadOf(res.json().id)).toMatchObject({
      source: 'live',
      userId: null,
      group: 'sales',
      managerId: null,
    });
    expect((await intake('site-leads-key-123', { fullName: 'Live Lead', email: e })).statusCode).toBe(200);
    expect(await listIds(1, '/affiliate/leads/api/new/All/live?limit=100')).toContain(res.json().id);
    expect(await listIds(4)).not.toContain(res.json().id);
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, res.json().id)));
    expect(audit).toMatchObject({ action: 'lead.create', actorId: null });
    expect(JSON.stringify(audit)).not.toContain('site-leads-key-123');
    // Emptying the setting turns the site key off.
    await putSetting(t.ctx.db, 'webhookApiKeyLeads', { value1: '' });
    expect((await intake('site-leads-key-123', { fullName: 'Live Lead', email: email() })).statusCode).toBe(401);
  });

  it(`limits each key to ${LEAD_INTAKE_PER_MINUTE} requests a minute (429 with a message and Retry-After), other keys unaffected`, async () => {
    const busy = await generate('affiliate2');
    const e = email();
    for (let i = 0; i < LEAD_INTAKE_PER_MINUTE; i++)
      expect((await intake(busy, { fullName: 'Busy Key', email: e })).statusCode).toBeLessThan(300);
    const over = await intake(busy, { fullName: 'Busy Key', email: e });
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/^Too many requests with this API key \(at most 60 a minute\)\. Try again in/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await intake(key, { fullName: 'Calm Key', email: email() })).statusCode).toBe(201);
  });

  it(`refuses an address after ${LEAD_INTAKE_WRONG_KEYS} wrong keys, even with a right key; other addresses go on`, async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < LEAD_INTAKE_WRONG_KEYS; i++)
      expect((await intake(`ak_guess${i}`, { fullName: 'G', email: email() }, ip)).statusCode).toBe(401);
    const blocked = await intake(key, { fullName: 'Guesser', email: email() }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/wrong API key from your network/);
    expect((await intake(key, { fullName: 'Elsewhere', email: email() }, '203.0.113.78')).statusCode).toBe(201);
  });
});

describe('intake documentation', () => {
  it('is in the OpenAPI document with its API key security scheme', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = doc.paths['/api/affiliate/leads/intake'].post;
    expect(op.security).toEqual([{ affiliateApiKey: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '429']));
    expect(doc.components.securitySchemes.affiliateApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const body = op.requestBody.content['application/json'].schema;
    expect(body.required).toContain('email');
    expect(body.properties.fullName.description).toMatch(/split at the first space/);
  });

  it('downloads as Markdown for affiliates, with the address, the header, every field and curl examples', async () => {
    const res = await call(4, 'GET', '/affiliate/api/documentation');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="lead-intake-api.md"');
    const md = res.body;
    expect(md).toContain(`${t.ctx.config.appUrl}/api/affiliate/leads/intake`);
    expect(md).toContain('X-API-Key');
    expect(md).toContain('curl -sS -X POST');
    for (const f of [
      'firstName',
      'lastName',
      'fullName',
      'email',
      'phone',
      'country',
      'city',
      'funnelLink',
      'reference',
      'leadSourceId',
    ])
      expect(md).toContain(`| \`${f}\` |`);
    expect(md).toContain('| `email` | text | yes | 255 |');
    for (const role of [1, 3, 5])
      expect((await call(role, 'GET', '/affiliate/api/documentation')).statusCode).toBe(403);
  });
});
