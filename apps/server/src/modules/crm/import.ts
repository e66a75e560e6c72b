import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { LEAD_CSV_COLUMNS, LEAD_CSV_REPORT_ROWS, LeadCreateRequest, type LeadCsvReport } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { leadImports, salesStatuses, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { leadScope } from './scope.ts';
import { readLeadsCsv, type CsvHeader, type CsvRow } from './csv-file.ts';

type Ctx = Pick<AppContext, 'db'>;
type LeadInput = z.output<typeof LeadCreateRequest>;
interface Candidate {
  row: number;
  lead: LeadInput;
  phoneDigits: string | null;
}
type Duplicate = LeadCsvReport['duplicates'][number];

/** An import a worker has taken: the file and whom it imports as. */
export interface ImportJob {
  importId: number;
  actor: StaffActor;
  fileName: string;
  file: Buffer;
}

/** Rows per INSERT statement: one JSON parameter each, well inside any statement limit. */
const INSERT_CHUNK = 5_000;
/** Rows validated between turns of the event loop (the worker shares its process with requests). */
const ROWS_PER_TURN = 2_000;

const digitsOf = (phone: string | null | undefined): string | null => {
  const d = phone?.replace(/\D/g, '') ?? '';
  return d.length > 0 ? d : null;
};

/** Each row checked with the Add Lead rules plus "an email or a phone" and a known status. */
async function validateRows(ctx: Ctx, header: CsvHeader, rows: CsvRow[]) {
  const statusRows = await ctx.db
    .select({ status: salesStatuses.status, isDefault: salesStatuses.isDefault })
    .from(salesStatuses);
  const statusByName = new Map(statusRows.map((s) => [s.status.toLowerCase(), s.status]));
  const defaultStatus = statusRows.find((s) => s.isDefault)?.status;
  if (!defaultStatus) throw new AppError('SALES_STATUS_NOT_FOUND');

  const rejected: LeadCsvReport['rejected'] = [];
  let rejectedCount = 0;
  const candidates: Candidate[] = [];
  for (const [n, { record, line }] of rows.entries()) {
    if (n > 0 && n % ROWS_PER_TURN === 0) await nextTurn();
    const raw: Record<string, string> = {};
    for (const column of LEAD_CSV_COLUMNS) {
      const i = header.index[column];
      if (i !== undefined && record[i] !== undefined && record[i] !== '') raw[column] = record[i];
    }
    const reasons: string[] = [];
    if (raw.leadStatus !== undefined) {
      const known = statusByName.get(raw.leadStatus.toLowerCase());
      if (known) raw.leadStatus = known;
      else reasons.push(`Unknown status: ${raw.leadStatus.slice(0, 60)}`);
    }
    const parsed = LeadCreateRequest.safeParse(raw);
    if (!parsed.success)
      for (const issue of parsed.error.issues) reasons.push(`${String(issue.path[0] ?? 'row')}: ${issue.message}`);
    else if (!parsed.data.email && !parsed.data.phone) reasons.push('Give an email or a phone number');
    if (reasons.length > 0 || !parsed.success) {
      rejectedCount++;
      if (rejected.length < LEAD_CSV_REPORT_ROWS) rejected.push({ row: line, reasons });
      continue;
    }
    candidates.push({ row: line, lead: parsed.data, phoneDigits: digitsOf(parsed.data.phone) });
  }
  return { defaultStatus, rejected, rejectedCount, candidates };
}

/**
 * The work of the job crm.import-leads (see lead-imports.ts for the import's life). Every row is validated with the
 * same rules as Add Lead, then checked for duplicates (same email, or same phone digits, as an existing lead, an
 * existing customer or an earlier row of the file). The rows that pass are inserted in one transaction, so a file is
 * imported whole or not at all; the report names the rest. Imports are serialised by an advisory lock so two files
 * with the same leads cannot both pass the duplicate check. The import is marked done, with its report, in the same
 * transaction: answers null, inserting nothing, when it is no longer running there (another worker or an earlier
 * run of this job finished it).
 */
export async function importLeads(ctx: Ctx, job: ImportJob): Promise<LeadCsvReport | null> {
  const { header, rows } = await readLeadsCsv(job.file);
  const { defaultStatus, rejected, rejectedCount, candidates } = await validateRows(ctx, header, rows);
  const { actor } = job;

  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('leads.csv-import'))`);
    const [current] = await tx
      .select({ status: leadImports.status })
      .from(leadImports)
      .where(eq(leadImports.id, job.importId))
      .for('update');
    if (current?.status !== 'running') return null;
    const duplicates = await findDuplicates(tx, actor, candidates);
    const dupRows = new Set(duplicates.map((d) => d.row));
    const accepted = candidates.filter((c) => !dupRows.has(c.row));
    for (let i = 0; i < accepted.length; i += INSERT_CHUNK) {
      await insertLeads(tx, actor, accepted.slice(i, i + INSERT_CHUNK), defaultStatus, job.fileName);
    }
    const report: LeadCsvReport = {
      message: accepted.length > 0 ? 'Leads added successfully' : 'No lead was added',
      total: rows.length,
      accepted: accepted.length,
      rejectedCount,
      duplicateCount: duplicates.length,
      rejected,
      duplicates: duplicates.slice(0, LEAD_CSV_REPORT_ROWS),
      ignoredColumns: header.ignored,
    };
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'lead.import',
      ip: actor.ip,
      before: null,
      subjectType: 'lead_import',
      subjectId: job.importId,
      after: {
        file: job.fileName.slice(0, 200),
        total: report.total,
        accepted: report.accepted,
        rejected: rejectedCount,
        duplicates: duplicates.length,
      },
    });
    // The file is no longer needed once its leads are in.
    await tx
      .update(leadImports)
      .set({ status: 'done', report, error: null, file: null, finishedAt: new Date() })
      .where(eq(leadImports.id, job.importId));
    return report;
  });
}

/**
 * Rows whose email or phone is already a lead's or a customer's, or an earlier row's. One query per kind over the
 * whole file (hash joins against the file's values), not one per row. A match the uploader may not see (another
 * affiliate's lead, a customer outside a manager's care) is reported only as 'known': whose it is stays hidden, so
 * a file cannot be used to learn who the broker's customers are or which leads other affiliates brought.
 */
async function findDuplicates(tx: Tx, actor: StaffActor, candidates: Candidate[]): Promise<Duplicate[]> {
  const emails = [...new Set(candidates.flatMap((c) => (c.lead.email ? [c.lead.email] : [])))];
  const phones = [...new Set(candidates.flatMap((c) => (c.phoneDigits ? [c.phoneDigits] : [])))];
  const taken = new Map<string, Duplicate['matches']>();
  // The uploader's scopes, on unaliased `users` and `leads` (the helpers name those tables).
  const seesCustomer = customerScope(actor, users.id);
  const seesLead = leadScope(actor);
  const note = (key: string, rows: Array<{ kind: 'lead' | 'customer'; v: string; visible: boolean }>) => {
    for (const r of rows) {
      const k = `${key}:${r.v}`;
      const shown = r.visible ? r.kind : 'known';
      const before = taken.get(k);
      // A match the uploader may see is named (a customer before a lead); otherwise it is only 'known'.
      if (!before || before === 'known' || (before === 'lead' && shown === 'customer')) taken.set(k, shown);
    }
  };
  type Match = { rows: Array<{ kind: 'lead' | 'customer'; v: string; visible: boolean }> };
  if (emails.length > 0) {
    const { rows } = (await tx.execute(sql`
      with f(v) as (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))
      select 'customer' as kind, f.v, (${seesCustomer}) as visible
        from f join users on lower(users.email) = f.v where users.role_id = 3 and users.deleted_at is null
      union all
      select 'lead', f.v, (${seesLead}) from f join leads on lower(leads.email) = f.v where leads.deleted_at is null`)) as unknown as Match;
    note('e', rows);
  }
  if (phones.length > 0) {
    const { rows } = (await tx.execute(sql`
      with f(v) as (select jsonb_array_elements_text(${JSON.stringify(phones)}::jsonb))
      select 'customer' as kind, f.v, (${seesCustomer}) as visible from f
        join user_profiles p on regexp_replace(p.phone, '[^0-9]', '', 'g') = f.v
        join users on users.id = p.user_id and users.role_id = 3 and users.deleted_at is null
      union all
      select 'lead', f.v, (${seesLead}) from f join leads on regexp_replace(leads.phone, '[^0-9]', '', 'g') = f.v where leads.deleted_at is null`)) as unknown as Match;
    note('p', rows);
  }
  const seen = new Set<string>();
  const duplicates: Duplicate[] = [];
  for (const c of candidates) {
    const keys: Array<['email' | 'phone', string | null]> = [
      ['email', c.lead.email ? `e:${c.lead.email}` : null],
      ['phone', c.phoneDigits ? `p:${c.phoneDigits}` : null],
    ];
    let dup: Duplicate | null = null;
    for (const [field, key] of keys) {
      if (!key || dup) continue;
      const existing = taken.get(key);
      if (existing) dup = { row: c.row, field, matches: existing };
      else if (seen.has(key)) dup = { row: c.row, field, matches: 'file' };
    }
    for (const [, key] of keys) if (key) seen.add(key);
    if (dup) duplicates.push(dup);
  }
  return duplicates;
}

/** One INSERT for a chunk of leads, with each lead's timeline entry written by the same statement. */
async function insertLeads(
  tx: Tx,
  actor: StaffActor,
  chunk: Candidate[],
  defaultStatus: string,
  filename: string,
): Promise<void> {
  const data = chunk.map(({ lead }) => ({
    first_name: lead.firstName,
    last_name: lead.lastName || null,
    email: lead.email ?? null,
    phone: lead.phone ?? null,
    country: lead.country ?? null,
    city: lead.city || null,
    funnel_link: lead.funnelLink ?? null,
    reference: lead.reference || null,
    lead_status: lead.leadStatus ?? defaultStatus,
  }));
  const source = actor.roleId === 4 ? 'affiliate' : 'manual';
  const managerId = actor.roleId === 2 ? actor.id : null;
  const affiliateId = actor.roleId === 4 ? actor.id : null;
  const after = JSON.stringify({ source: 'csv', file: filename.slice(0, 200) });
  await tx.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(data)}::jsonb) as x(
        first_name text, last_name text, email text, phone text, country text, city text, funnel_link text, reference text, lead_status text)
    ), inserted as (
      insert into leads (first_name, last_name, email, phone, country, city, funnel_link, reference, lead_status, "group", source, manager_id, user_id)
      select first_name, last_name, email, phone, country, city, funnel_link, reference, lead_status, 'sales', ${source}, ${managerId}::int, ${affiliateId}::int
      from input
      returning id
    )
    insert into audit_logs (actor_id, action, subject_type, subject_id, after, ip)
    select ${actor.id}::int, 'lead.import', 'lead', id, ${after}::jsonb, ${actor.ip?.slice(0, 64) ?? null}
    from inserted`);
}
