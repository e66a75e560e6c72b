import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LeadCsvReport, LeadImportResponse } from '@platform/domain';
import { createTestApp, multipart, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { leads, userProfiles, users } from '../../db/schema.ts';

/**
 * A leads file must not tell its uploader who else's records its emails and phones match: an affiliate learns
 * nothing of the broker's customers or other affiliates' leads, a manager nothing of other managers' customers.
 */
let t: TestApp;
const cookies = new Map<number | string, string>();
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await signInDemoRoles(t, cookies, ids);
});
afterAll(async () => t.close());

async function importAs(role: number, csv: string): Promise<LeadCsvReport> {
  const form = multipart({}, { file: { data: Buffer.from(csv), filename: 'leads.csv', type: 'text/csv' } });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/leads/csv',
    payload: form.payload,
    headers: { ...form.headers, cookie: cookies.get(role)! },
  });
  expect(res.statusCode, res.body).toBe(202);
  let last: LeadImportResponse | null = null;
  await expect
    .poll(
      async () => {
        last = (
          await t.app.inject({
            method: 'GET',
            url: `/api/admin/leads/csv/${res.json().id}`,
            headers: { cookie: cookies.get(role)! },
          })
        ).json() as LeadImportResponse;
        return last.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/done|failed/);
  return (last as unknown as LeadImportResponse).report!;
}

describe('duplicates in a leads file, as its uploader may see them', () => {
  it('an affiliate is told "known" for customers and other affiliates\' leads, and named matches only for their own leads', async () => {
    const [other] = await t.ctx.db
      .insert(users)
      .values({ fullName: 'Other Affiliate', email: 'other-aff@example.test', passwordHash: 'x', roleId: 4 })
      .returning();
    await t.ctx.db.insert(leads).values([
      {
        firstName: 'Theirs',
        email: 'theirs@example.test',
        phone: '+1 555 000 1111',
        leadStatus: 'New',
        userId: other.id,
      },
      { firstName: 'Mine', email: 'mine@example.test', leadStatus: 'New', userId: ids.affiliate },
    ]);
    const [client] = await t.ctx.db.select().from(users).where(eq(users.id, ids.client));
    await t.ctx.db.update(userProfiles).set({ phone: '+44 7700 900777' }).where(eq(userProfiles.userId, client.id));
    const csv = [
      'firstName,email,phone',
      `A,${client.email},`, // 2: the broker's customer
      'B,theirs@example.test,', // 3: another affiliate's lead
      'C,,15550001111', // 4: the same lead by phone
      'D,,+447700900777', // 5: the customer by phone
      'E,mine@example.test,', // 6: the affiliate's own lead
    ].join('\n');
    const report = await importAs(4, csv);
    expect(report.duplicates).toEqual([
      { row: 2, field: 'email', matches: 'known' },
      { row: 3, field: 'email', matches: 'known' },
      { row: 4, field: 'phone', matches: 'known' },
      { row: 5, field: 'phone', matches: 'known' },
      { row: 6, field: 'email', matches: 'lead' },
    ]);
    expect(JSON.stringify(report)).not.toMatch(/customer/);

    // An admin sees the same file's matches by name.
    const admin = await importAs(1, csv);
    expect(admin.duplicates.map((d) => d.matches)).toEqual(['customer', 'lead', 'lead', 'customer', 'lead']);
  });

  it('a manager is told the names of their own customers\' matches, and only "known" for another manager\'s', async () => {
    const [client] = await t.ctx.db.select().from(users).where(eq(users.id, ids.client));
    await t.ctx.db.update(userProfiles).set({ managerId: ids.manager }).where(eq(userProfiles.userId, client.id));
    const csv = `firstName,email\nA,${client.email}\n`;
    expect((await importAs(2, csv)).duplicates).toEqual([{ row: 2, field: 'email', matches: 'customer' }]);
    await t.ctx.db.update(userProfiles).set({ managerId: ids.admin }).where(eq(userProfiles.userId, client.id));
    expect((await importAs(2, csv)).duplicates).toEqual([{ row: 2, field: 'email', matches: 'known' }]);
  });
});

describe('the lead-intake API', () => {
  it("answers an email that is a customer's or another affiliate's lead exactly like a new one", async () => {
    const key = await t.app.inject({ method: 'POST', url: '/api/affiliate/api', headers: { cookie: cookies.get(4)! } });
    expect(key.statusCode, key.body).toBe(201);
    const apiKey: string = key.json().key;
    const [client] = await t.ctx.db.select().from(users).where(eq(users.id, ids.client));
    const post = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/affiliate/leads/intake',
        headers: { 'x-api-key': apiKey },
        payload: { firstName: 'Probe', email },
      });
    for (const email of [client.email, 'theirs@example.test', 'nobody-yet@example.test']) {
      const res = await post(email);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ message: 'Lead received', created: true });
    }
  });
});
