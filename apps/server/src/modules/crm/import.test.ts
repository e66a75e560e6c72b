import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, like } from 'drizzle-orm';
import { LEAD_CSV_EXAMPLE, type LeadCsvReport, type LeadImportResponse } from '@platform/domain';
import { createTestApp, multipart, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, leadImports, leads, userProfiles, users } from '../../db/schema.ts';

let t: TestApp;
const cookies = new Map<number, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  await signInDemoRoles(t, cookies, ids);
});
afterAll(async () => t.close());

const upload = (role: number | null, csv: string | Buffer, filename = 'leads.csv') => {
  const form = multipart(
    {},
    { file: { data: Buffer.isBuffer(csv) ? csv : Buffer.from(csv), filename, type: 'text/csv' } },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/leads/csv',
    payload: form.payload,
    headers: { ...form.headers, ...(role === null ? {} : { cookie: cookies.get(role)! }) },
  });
};
const tag = () => `imp${++seq}x${Date.now().toString(36)}`;
const imported = (prefix: string) =>
  t.ctx.db
    .select()
    .from(leads)
    .where(like(leads.firstName, `${prefix}%`));
const importOf = (role: number, id: number) =>
  t.app.inject({ method: 'GET', url: `/api/admin/leads/csv/${id}`, headers: { cookie: cookies.get(role)! } });

/** Polls the import as its uploader until the background job has finished it; answers its report. */
async function reportOf(role: number, id: number): Promise<LeadCsvReport> {
  let last: LeadImportResponse | null = null;
  await expect
    .poll(
      async () => {
        const res = await importOf(role, id);
        expect(res.statusCode, res.body).toBe(200);
        last = res.json() as LeadImportResponse;
        return last.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/done|failed/);
  const done = last! as LeadImportResponse;
  expect(done, JSON.stringify(done)).toMatchObject({ status: 'done', error: null });
  expect(done.finishedAt).not.toBeNull();
  return done.report!;
}
/** Uploads, expects the 202 at once, and waits for the report. */
async function importFile(role: number, csv: string | Buffer, filename?: string): Promise<LeadCsvReport> {
  const res = await upload(role, csv, filename);
  expect(res.statusCode, res.body).toBe(202);
  return reportOf(role, res.json().id);
}

describe('POST /admin/leads/csv and its import', () => {
  it('imports the valid rows and reports rejected rows with reasons and duplicates of leads, customers and the file itself', async () => {
    const p = tag();
    const [existing] = await t.ctx.db
      .insert(leads)
      .values({ firstName: `${p}old`, email: `${p}.lead@example.com`, phone: '+1 555 010 9999', leadStatus: 'New' })
      .returning();
    const [customer] = await t.ctx.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.id, ids.client));
    await t.ctx.db.update(userProfiles).set({ phone: '+44 7700 900555' }).where(eq(userProfiles.userId, customer.id));
    const csv = [
      'First Name,last_name,E-mail,Phone,Country,City,Status,Favourite Colour',
      `${p}a,Ok,${p}.a@example.com,+44 20 7946 0001,United Kingdom,London,,blue`, // line 2: accepted
      `${p}b,Ok,${p}.b@example.com,,Spain,Madrid,Contacted,red`, // 3: accepted with its status
      `,NoName,${p}.c@example.com,,,,,`, // 4: rejected, no first name
      `${p}d,Bad,not-an-email,,Atlantis,,,`, // 5: rejected, email and country
      `${p}e,Dup,${p}.lead@example.com,,,,,`, // 6: duplicate of a lead (email, case differs below)
      `${p}f,Dup,${customer.email.toUpperCase()},,,,,`, // 7: duplicate of a customer
      `${p}g,Dup,,+44 (20) 7946-0001,,,,`, // 8: duplicate of line 2 by phone digits
      `${p}h,Dup,,1-555-010-9999,,,,`, // 9: duplicate of a lead by phone
      `${p}i,Dup,,+447700900555,,,,`, // 10: duplicate of a customer by phone
      `${p}j,NoContact,,,,,,`, // 11: rejected, neither email nor phone
      `${p}k,BadStatus,${p}.k@example.com,,,,Millionaire,`, // 12: rejected, unknown status
      `"${p}l","Quoted, Name",${p}.l@example.com,,,,,`, // 13: accepted
    ].join('\r\n');
    const res = await upload(1, csv, 'autumn-campaign.csv');
    // The answer comes at once: the file is checked and queued, its rows are imported by a background job.
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      message: 'The file is being imported',
      status: 'queued',
      fileName: 'autumn-campaign.csv',
      rowCount: 12,
    });
    const [queued] = await t.ctx.db.select().from(leadImports).where(eq(leadImports.id, res.json().id));
    expect(queued).toMatchObject({ uploadedBy: ids.admin, uploaderRole: 1, rowCount: 12 });
    const report = await reportOf(1, res.json().id);
    expect(report).toMatchObject({
      message: 'Leads added successfully',
      total: 12,
      accepted: 3,
      rejectedCount: 4,
      duplicateCount: 5,
      ignoredColumns: ['Favourite Colour'],
    });
    expect(report.rejected.map((r: { row: number }) => r.row)).toEqual([4, 5, 11, 12]);
    expect(report.rejected[0].reasons.join(' ')).toContain('First name is required');
    expect(report.rejected[1].reasons.join(' ')).toMatch(
      /Invalid email.*Unknown country|Unknown country.*Invalid email/,
    );
    expect(report.rejected[2].reasons).toEqual(['Give an email or a phone number']);
    expect(report.rejected[3].reasons).toEqual(['Unknown status: Millionaire']);
    expect(report.duplicates).toEqual([
      { row: 6, field: 'email', matches: 'lead' },
      { row: 7, field: 'email', matches: 'customer' },
      { row: 8, field: 'phone', matches: 'file' },
      { row: 9, field: 'phone', matches: 'lead' },
      { row: 10, field: 'phone', matches: 'customer' },
    ]);

    const rows = (await imported(p)).filter((l) => l.id !== existing.id);
    expect(rows.map((l) => l.firstName).sort()).toEqual([`${p}a`, `${p}b`, `${p}l`]);
    const b = rows.find((l) => l.firstName === `${p}b`)!;
    expect(b).toMatchObject({
      leadStatus: 'Contacted',
      group: 'sales',
      source: 'manual',
      country: 'Spain',
      email: `${p}.b@example.com`,
    });
    expect(rows.find((l) => l.firstName === `${p}a`)!.leadStatus).toBe('New');
    expect(rows.find((l) => l.firstName === `${p}l`)!.lastName).toBe('Quoted, Name');
    // Each imported lead's timeline starts with the import; the upload itself is one audit row with its counts.
    const timeline = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.subjectType, 'lead'),
          inArray(
            auditLogs.subjectId,
            rows.map((l) => l.id),
          ),
        ),
      );
    expect(timeline).toHaveLength(3);
    expect(timeline.every((a) => a.action === 'lead.import' && a.actorId === ids.admin)).toBe(true);
    const audit = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead_import'), eq(auditLogs.subjectId, res.json().id)))
      .orderBy(auditLogs.id);
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ['lead.import.upload', ids.admin],
      ['lead.import', ids.admin],
    ]);
    expect(audit[0].after).toEqual({ file: 'autumn-campaign.csv', rows: 12 });
    expect(audit[1].after).toEqual({ file: 'autumn-campaign.csv', total: 12, accepted: 3, rejected: 4, duplicates: 5 });
    // The stored file is dropped once its leads are in.
    const [done] = await t.ctx.db.select().from(leadImports).where(eq(leadImports.id, res.json().id));
    expect(done).toMatchObject({ status: 'done', file: null, attempts: 1 });
  });

  it('uploading the same file twice, even at once, imports its leads once', async () => {
    const p = tag();
    const csv = ['firstName,email', ...Array.from({ length: 50 }, (_, i) => `${p}${i},${p}${i}@example.com`)].join(
      '\n',
    );
    const [a, b] = await Promise.all([upload(1, csv), upload(1, csv)]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    const [ra, rb] = await Promise.all([reportOf(1, a.json().id), reportOf(1, b.json().id)]);
    expect([ra.accepted, rb.accepted].sort()).toEqual([0, 50]);
    expect([ra.duplicateCount, rb.duplicateCount].sort()).toEqual([0, 50]);
    expect(await imported(p)).toHaveLength(50);
  });

  it('a manager’s upload is managed by them and an affiliate’s lands in their Affiliate Leads', async () => {
    const p = tag();
    expect((await importFile(2, `firstName,email\n${p}m,${p}m@example.com\n`)).accepted).toBe(1);
    expect((await importFile(4, `firstName,email\n${p}f,${p}f@example.com\n`)).accepted).toBe(1);
    const rows = await imported(p);
    expect(rows.find((l) => l.firstName === `${p}m`)).toMatchObject({
      managerId: ids.manager,
      source: 'manual',
      userId: null,
    });
    expect(rows.find((l) => l.firstName === `${p}f`)).toMatchObject({
      userId: ids.affiliate,
      source: 'affiliate',
      managerId: null,
    });
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/affiliate/leads/api?search=${p}`,
      headers: { cookie: cookies.get(4)! },
    });
    expect(mine.json().data.map((l: { first_name: string }) => l.first_name)).toEqual([`${p}f`]);
  });

  it('refuses files it cannot read at once, with a message, nothing queued and nothing imported', async () => {
    const p = tag();
    const importsBefore = await t.ctx.db.$count(leadImports);
    const cases: Array<[string | Buffer, RegExp]> = [
      ['', /Choose a CSV file/],
      ['\n\n', /empty/],
      ['firstName,email\n', /no leads/],
      [`email,phone\n${p}@example.com,\n`, /firstName column/],
      [`firstName,email\n"${p}unclosed,${p}@example.com\n`, /not a readable CSV/],
      [`firstName\n${'x\n'.repeat(200_001)}`, /At most 200,000 leads per file/],
    ];
    for (const [csv, message] of cases) {
      const res = await upload(1, csv);
      expect(res.statusCode, String(csv).slice(0, 80)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await t.ctx.db.$count(leadImports)).toBe(importsBefore);
    // A readable file with an unstorable character is queued; the job rejects that row like any invalid one.
    expect(await importFile(1, Buffer.from(`firstName,email\n${p}\u0000x,${p}z@example.com\n`))).toMatchObject({
      accepted: 0,
      rejectedCount: 1,
    });
    const noFile = multipart({ note: 'x' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/leads/csv',
      payload: noFile.payload,
      headers: { ...noFile.headers, cookie: cookies.get(1)! },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Choose a CSV file to upload.');
    expect(await imported(p)).toHaveLength(0);
  });

  it('is for admins, managers and affiliates only; agents, customers and strangers are refused', async () => {
    const csv = `firstName,email\n${tag()},x${seq}@example.com\n`;
    for (const role of [3, 5, 6]) expect((await upload(role, csv)).statusCode).toBe(403);
    expect((await upload(null, csv)).statusCode).toBe(401);
  });

  it('serves the example CSV, which itself imports cleanly', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/leads/csv/example',
      headers: { cookie: cookies.get(2)! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('leads-example.csv');
    expect(res.body).toBe(LEAD_CSV_EXAMPLE);
    const first = await importFile(1, res.body);
    expect(first).toMatchObject({ rejectedCount: 0, ignoredColumns: [] });
    expect(first.accepted + first.duplicateCount).toBe(2);
  });
});
