import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { createTestApp, DEMO_PASSWORD, signIn, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { leads, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/crypto.ts';

/** A role id (demo account), a key of an extra account ('agent2', …), or null for no session. */
export type Who = number | string | null;

/**
 * The app, sign-ins and lead fixtures the lead tests share. Each test file calls `start` in its own beforeAll: files
 * run in parallel workers, each on its own database.
 */
export function crmKit() {
  let t: TestApp;
  const cookies = new Map<number | string, string>();
  const ids: Record<string, number> = {};
  let seq = 0;

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

  /** A fresh app with every demo role signed in, plus a second sales agent, retention agent and affiliate. */
  async function start(env: Record<string, string> = {}): Promise<TestApp> {
    t = await createTestApp(env);
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
    return t;
  }

  return { ids, call, tag, lead, listIds, row, start };
}
