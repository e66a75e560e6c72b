import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { StatementExportQuery } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { loadAccountStatement, statementPeriod } from './account-statement.ts';
import { statementFileName } from './statement-format.ts';
import { statementPdf } from './statement-pdf.ts';
import { statementXlsx } from './statement-xlsx.ts';
import { statementCsv, statementWallet } from './service.ts';

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

function download(reply: FastifyReply, format: keyof typeof CONTENT_TYPES, name: string): FastifyReply {
  return reply
    .header('Content-Type', CONTENT_TYPES[format])
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
}

/**
 * GET /statements/export and /admin/customers/{id}/statement: a user's wallet (walletId, else their active wallet)
 * over the period, as the CSV of closed trades (the spec's export) or the account statement as PDF or XLSX, streamed.
 * Everything that can fail (the wallet, the dates, the reconciliation) fails before the headers are sent, as JSON.
 */
export async function sendStatementExport(
  ctx: Pick<AppContext, 'db' | 'risk' | 'objectStore'>,
  reply: FastifyReply,
  userId: number,
  q: StatementExportQuery,
): Promise<FastifyReply> {
  if (q.format === 'csv') {
    const rows = statementCsv(ctx.db, userId, { ...q, page: 1, limit: 15 });
    // Pull the first chunk before sending headers, so a bad date range or wallet still answers with a JSON error.
    const first = await rows.next();
    const wallet = await statementWallet(ctx.db, userId, q.walletId);
    download(reply, 'csv', statementFileName(wallet, q, 'csv'));
    return reply.send(
      Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* rows;
        })(),
      ),
    );
  }
  const wallet = await statementWallet(ctx.db, userId, q.walletId);
  if (!wallet) throw new AppError('NO_ACTIVE_WALLET');
  const statement = await loadAccountStatement(ctx, userId, wallet, statementPeriod(q));
  const file = q.format === 'pdf' ? statementPdf(statement) : statementXlsx(statement);
  download(reply, q.format, statementFileName(wallet, q, q.format));
  return reply.send(file);
}
