import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { LeadCsvUploadResponse, LeadImportResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { leadImports } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isBadDataError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { checkLeadsCsv } from './csv-file.ts';
import { importLeads } from './import.ts';

/**
 * A leads CSV upload's life (back-office §2 Upload Leads): the request checks the file and queues its import
 * (queued), a worker of any instance takes it (running) and imports it (import.ts) into done with its report, or
 * failed with the reason. The uploader follows it with GET /admin/leads/csv/{id}.
 */

/** Runs of one import before it is given up: a failure the queue retries, or a run a crash cut short. */
const MAX_ATTEMPTS = 3;
const GAVE_UP = 'The import could not be finished. Please upload the file again.';
/**
 * The file is kept gzipped: a CSV shrinks about seven times, and the embedded database takes a 7 MB parameter in
 * about 1.6 s of the event loop but 1 MB in 0.25 s. zlib works off the event loop.
 */
const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

/** POST /admin/leads/csv: checks the file at once (400 with the reason), records the import and queues it. */
export async function queueLeadImport(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  actor: StaffActor,
  file: { filename: string; data: Buffer },
): Promise<LeadCsvUploadResponse> {
  const [rowCount, packed] = await Promise.all([checkLeadsCsv(file.data), gzip(file.data)]);
  const fileName = file.filename.trim().slice(0, 255) || 'leads.csv';
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(leadImports)
      .values({
        uploadedBy: actor.id,
        uploaderRole: actor.roleId,
        uploaderIp: actor.ip.slice(0, 64),
        fileName,
        rowCount,
        file: packed,
      })
      .returning({ id: leadImports.id });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'lead.import.upload',
      ip: actor.ip,
      subjectType: 'lead_import',
      subjectId: row.id,
      after: { file: fileName.slice(0, 200), rows: rowCount },
    });
    return row.id;
  });
  // After the commit: the queue writes on its own connection (the embedded database's one is held by a transaction).
  try {
    await ctx.jobs.send('crm.import-leads', { importId: id });
  } catch (err) {
    await failImport(ctx.db, id, GAVE_UP);
    throw err;
  }
  return { message: 'The file is being imported', id, status: 'queued', fileName, rowCount };
}

/** GET /admin/leads/csv/{id}: the uploader's own import (any import for admins); anyone else is told it does not exist. */
export async function leadImportOf(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  id: number,
): Promise<LeadImportResponse> {
  const mine = actor.roleId === 1 ? sql`true` : eq(leadImports.uploadedBy, actor.id);
  const [row] = await ctx.db
    .select({
      id: leadImports.id,
      status: leadImports.status,
      fileName: leadImports.fileName,
      rowCount: leadImports.rowCount,
      report: leadImports.report,
      error: leadImports.error,
      createdAt: leadImports.createdAt,
      finishedAt: leadImports.finishedAt,
    })
    .from(leadImports)
    .where(and(eq(leadImports.id, id), mine));
  if (!row) throw new AppError('LEAD_IMPORT_NOT_FOUND');
  return {
    ...row,
    status: row.status as LeadImportResponse['status'],
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The job crm.import-leads. Takes the import if it is still queued or running (a run a crash cut short), counting the
 * run; one already done or failed is left alone, so a duplicate job or a retry after the import committed inserts
 * nothing. A problem with the file or its data fails the import with the reason; anything else (the database was
 * away) is thrown for the queue to retry, until the import has had its runs.
 */
export async function runLeadImport(ctx: Pick<AppContext, 'db'>, importId: number): Promise<void> {
  const [taken] = await ctx.db
    .update(leadImports)
    .set({ status: 'running', attempts: sql`${leadImports.attempts} + 1`, startedAt: new Date() })
    .where(and(eq(leadImports.id, importId), inArray(leadImports.status, ['queued', 'running'])))
    .returning();
  if (!taken?.file) return;
  if (taken.attempts > MAX_ATTEMPTS) return failImport(ctx.db, importId, GAVE_UP);
  const actor: StaffActor = { id: taken.uploadedBy, roleId: taken.uploaderRole, ip: taken.uploaderIp ?? '' };
  try {
    await importLeads(ctx, { importId, actor, fileName: taken.fileName, file: await gunzip(taken.file) });
  } catch (err) {
    if (err instanceof AppError) return failImport(ctx.db, importId, err.message);
    if (isBadDataError(err))
      return failImport(
        ctx.db,
        importId,
        'The file holds a value that cannot be stored. Please check the file and upload it again.',
      );
    if (taken.attempts >= MAX_ATTEMPTS) return failImport(ctx.db, importId, GAVE_UP);
    throw err;
  }
}

/** Marks an import failed unless it already finished; its file is dropped (the uploader uploads again). */
async function failImport(db: DbOrTx, importId: number, error: string): Promise<void> {
  await db
    .update(leadImports)
    .set({ status: 'failed', error, file: null, finishedAt: new Date() })
    .where(and(eq(leadImports.id, importId), inArray(leadImports.status, ['queued', 'running'])));
}
