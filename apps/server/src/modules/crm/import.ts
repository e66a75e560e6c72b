import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import {
  LEAD_CSV_COLUMNS, LEAD_CSV_HEADER_ALIASES, LEAD_CSV_MAX_ROWS, LEAD_CSV_REPORT_ROWS, LeadCreateRequest, normaliseCsvHeader,
  type LeadCsvColumn, type LeadCsvReport,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { salesStatuses } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

type Ctx = Pick<AppContext, 'db'>;
type LeadInput = z.output<typeof LeadCreateRequest>;
interface Candidate {
  row: number;
  lead: LeadInput;
  phoneDigits: string | null;
}
type Duplicate = LeadCsvReport['duplicates'][number];

/** Rows per INSERT statement: one JSON parameter each, well inside any statement limit. */
const INSERT_CHUNK = 5_000;

const digitsOf = (phone: string | null | undefined): string | null => {
  const d = phone?.replace(/\D/g, '') ?? '';
  return d.length > 0 ? d : null;
};

/** The header row mapped to columns: the index of each known column, and the headers nobody reads. */
function readHeader(header: string[]): { index: Partial<Record<LeadCsvColumn, number>>; ignored: string[] } {
  const index: Partial<Record<LeadCsvColumn, number>> = {};
  const ignored: string[] = [];
  header.forEach((h, i) => {
    const column = LEAD_CSV_HEADER_ALIASES[normaliseCsvHeader(h)];
    if (column && index[column] === undefined) index[column] = i;
    else if (h.trim() !== '') ignored.push(h.trim().slice(0, 60));
  });
  if (index.firstName === undefined) {
    throw new AppError('VALIDATION', `The file needs a header row with a firstName column; the columns are: ${LEAD_CSV_COLUMNS.join(', ')}.`);
  }
  return { index, ignored };
}

function parseCsv(data: Buffer): Array<{ record: string[]; info: { lines: number } }> {
  try {
    // With `info`, each record comes with the line it ends on (the row number the report gives).
    const records: unknown = parse(data, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, info: true, max_record_size: 64 * 1024 });
    return records as Array<{ record: string[]; info: { lines: number } }>;
  } catch (err) {
    throw new AppError('VALIDATION', `The file is not a readable CSV: ${(err as Error).message.slice(0, 200)}`);
  }
}

/**
 * POST /admin/leads/csv. Every row is validated with the same rules as Add Lead, then checked for duplicates (same
 * email, or same phone digits, as an existing lead, an existing customer or an earlier row of the file). The rows
 * that pass are inserted in one transaction, so a file is imported whole or not at all; the report names the rest.
 * Imports are serialised by an advisory lock so two uploads of the same file cannot both pass the duplicate check.
 */
export async function importLeadsCsv(ctx: Ctx, actor: StaffActor, file: { filename: string; data: Buffer }): Promise<LeadCsvReport> {
  const records = parseCsv(file.data);
  if (records.length === 0) throw new AppError('VALIDATION', 'The file is empty.');
  const { index, ignored } = readHeader(records[0].record);
  const rows = records.slice(1);
  if (rows.length === 0) throw new AppError('VALIDATION', 'The file has a header but no leads.');
  if (rows.length > LEAD_CSV_MAX_ROWS) {
    throw new AppError('VALIDATION', `At most ${LEAD_CSV_MAX_ROWS.toLocaleString('en')} leads per file; split the file and upload each part.`);
  }

  const statusRows = await ctx.db.select({ status: salesStatuses.status, isDefault: salesStatuses.isDefault }).from(salesStatuses);
  const statusByName = new Map(statusRows.map((s) => [s.status.toLowerCase(), s.status]));
  const defaultStatus = statusRows.find((s) => s.isDefault)?.status;
  if (!defaultStatus) throw new AppError('SALES_STATUS_NOT_FOUND');

  const rejected: LeadCsvReport['rejected'] = [];
  let rejectedCount = 0;
  const candidates: Candidate[] = [];
  for (const { record, info } of rows) {
    const raw: Record<string, string> = {};
    for (const column of LEAD_CSV_COLUMNS) {
      const i = index[column];
      if (i !== undefined && record[i] !== undefined && record[i] !== '') raw[column] = record[i];
    }
    const reasons: string[] = [];
    if (raw.leadStatus !== undefined) {
      const known = statusByName.get(raw.leadStatus.toLowerCase());
      if (known) raw.leadStatus = known;
      else reasons.push(`Unknown status: ${raw.leadStatus.slice(0, 60)}`);
    }
    const parsed = LeadCreateRequest.safeParse(raw);
    if (!parsed.success) for (const issue of parsed.error.issues) reasons.push(`${String(issue.path[0] ?? 'row')}: ${issue.message}`);
    else if (!parsed.data.email && !parsed.data.phone) reasons.push('Give an email or a phone number');
    if (reasons.length > 0 || !parsed.success) {
      rejectedCount++;
      if (rejected.length < LEAD_CSV_REPORT_ROWS) rejected.push({ row: info.lines, reasons });
      continue;
    }
    candidates.push({ row: info.lines, lead: parsed.data, phoneDigits: digitsOf(parsed.data.phone) });
  }

  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('leads.csv-import'))`);
    const duplicates = await findDuplicates(tx, candidates);
    const dupRows = new Set(duplicates.map((d) => d.row));
    const accepted = candidates.filter((c) => !dupRows.has(c.row));
    for (let i = 0; i < accepted.length; i += INSERT_CHUNK) {
      await insertLeads(tx, actor, accepted.slice(i, i + INSERT_CHUNK), defaultStatus, file.filename);
    }
    const report: LeadCsvReport = {
      message: accepted.length > 0 ? 'Leads added successfully' : 'No lead was added',
      total: rows.length,
      accepted: accepted.length,
      rejectedCount,
      duplicateCount: duplicates.length,
      rejected,
      duplicates: duplicates.slice(0, LEAD_CSV_REPORT_ROWS),
      ignoredColumns: ignored,
    };
    await writeAudit(tx, {
      actorId: actor.id, targetUserId: null, action: 'lead.import', ip: actor.ip, before: null,
      after: { file: file.filename.slice(0, 200), total: report.total, accepted: report.accepted, rejected: rejectedCount, duplicates: duplicates.length },
    });
    return report;
  });
}

/**
 * Rows whose email or phone is already a lead's or a customer's, or an earlier row's. One query per kind over the
 * whole file (hash joins against the file's values), not one per row.
 */
async function findDuplicates(tx: Tx, candidates: Candidate[]): Promise<Duplicate[]> {
  const emails = [...new Set(candidates.flatMap((c) => (c.lead.email ? [c.lead.email] : [])))];
  const phones = [...new Set(candidates.flatMap((c) => (c.phoneDigits ? [c.phoneDigits] : [])))];
  const taken = new Map<string, 'lead' | 'customer'>();
  if (emails.length > 0) {
    const { rows } = (await tx.execute(sql`
      with f(v) as (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))
      select 'customer' as kind, f.v from f join users u on lower(u.email) = f.v where u.role_id = 3 and u.deleted_at is null
      union all
      select 'lead', f.v from f join leads l on lower(l.email) = f.v where l.deleted_at is null`)) as unknown as { rows: Array<{ kind: 'lead' | 'customer'; v: string }> };
    for (const r of rows) if (!taken.has(`e:${r.v}`) || r.kind === 'customer') taken.set(`e:${r.v}`, r.kind);
  }
  if (phones.length > 0) {
    const { rows } = (await tx.execute(sql`
      with f(v) as (select jsonb_array_elements_text(${JSON.stringify(phones)}::jsonb))
      select 'customer' as kind, f.v from f
        join user_profiles p on regexp_replace(p.phone, '[^0-9]', '', 'g') = f.v
        join users u on u.id = p.user_id and u.role_id = 3 and u.deleted_at is null
      union all
      select 'lead', f.v from f join leads l on regexp_replace(l.phone, '[^0-9]', '', 'g') = f.v where l.deleted_at is null`)) as unknown as {
      rows: Array<{ kind: 'lead' | 'customer'; v: string }>;
    };
    for (const r of rows) if (!taken.has(`p:${r.v}`) || r.kind === 'customer') taken.set(`p:${r.v}`, r.kind);
  }
  const seen = new Set<string>();
  const duplicates: Duplicate[] = [];
  for (const c of candidates) {
    const keys: Array<['email' | 'phone', string | null]> = [['email', c.lead.email ? `e:${c.lead.email}` : null], ['phone', c.phoneDigits ? `p:${c.phoneDigits}` : null]];
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
async function insertLeads(tx: Tx, actor: StaffActor, chunk: Candidate[], defaultStatus: string, filename: string): Promise<void> {
  const data = chunk.map(({ lead }) => ({
    first_name: lead.firstName, last_name: lead.lastName || null, email: lead.email ?? null, phone: lead.phone ?? null,
    country: lead.country ?? null, city: lead.city || null, funnel_link: lead.funnelLink ?? null, reference: lead.reference || null,
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
