import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { dec, type PartnerCommissionDto, type PartnerReportRow } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { type CsvColumn, sendCsv } from '../../lib/csv-export.ts';
import { exactNumber } from '../statements/statement-xlsx.ts';
import { type Period, partnerCommissionsPage } from './reports.ts';

/** The commission statement as CSV (csv-stringify, as every export) or XLSX (exceljs, as account statements). */

const COLUMNS: ReadonlyArray<CsvColumn<PartnerCommissionDto>> = [
  { header: 'Date', value: (r) => r.accruedAt },
  { header: 'Kind', value: (r) => r.kind },
  { header: 'Deal', value: (r) => r.dealId },
  { header: 'Deposit', value: (r) => r.depositId },
  { header: 'Client', value: (r) => r.client },
  { header: 'Instrument', value: (r) => r.instrument },
  { header: 'Lots', value: (r) => r.lots },
  { header: 'Level', value: (r) => r.level },
  { header: 'Amount', value: (r) => r.amount },
  { header: 'Currency', value: (r) => r.currency },
];

const BATCH = 1000;

function batches(db: DbOrTx, partnerId: number, p: Period) {
  return async function* (): AsyncGenerator<PartnerCommissionDto[]> {
    for (let page = 1; ; page++) {
      const { data } = await partnerCommissionsPage(db, partnerId, p, { page, limit: BATCH });
      yield data;
      if (data.length < BATCH) return;
    }
  };
}

export async function sendCommissions(
  db: DbOrTx,
  reply: FastifyReply,
  partnerId: number,
  p: Period,
  format: 'csv' | 'xlsx',
): Promise<FastifyReply> {
  const name = `commissions-${p.dateStart}-${p.dateEnd}`;
  if (format === 'csv') return sendCsv(reply, { name, columns: COLUMNS }, batches(db, partnerId, p));
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = book.addWorksheet('Commissions');
  sheet.columns = COLUMNS.map((c) => ({ header: c.header, width: c.header === 'Client' ? 28 : 14 }));
  void (async () => {
    try {
      for await (const rows of batches(db, partnerId, p)())
        for (const r of rows)
          sheet
            .addRow([
              new Date(r.accruedAt),
              r.kind,
              r.dealId,
              r.depositId,
              r.client,
              r.instrument,
              exactNumber(dec(r.lots)),
              r.level,
              exactNumber(dec(r.amount)),
              r.currency,
            ])
            .commit();
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${name}.xlsx"`)
    .header('cache-control', 'no-store')
    .send(out);
}

const REPORT_COLUMNS: ReadonlyArray<CsvColumn<PartnerReportRow>> = [
  { header: 'Partner', value: (r) => r.partnerId },
  { header: 'Name', value: (r) => r.name },
  { header: 'Email', value: (r) => r.email },
  { header: 'Parent', value: (r) => r.parentId },
  { header: 'Clients', value: (r) => r.clients },
  { header: 'Active traders', value: (r) => r.activeTraders },
  { header: 'Lots', value: (r) => r.lots },
  { header: 'Commission', value: (r) => r.commission.map((m) => `${m.amount} ${m.currency}`).join('; ') },
];

/** The admins' report by partner over the period as CSV (one row per partner). */
export function sendReportCsv(reply: FastifyReply, p: Period, rows: PartnerReportRow[]): FastifyReply {
  return sendCsv(reply, { name: `partners-${p.dateStart}-${p.dateEnd}`, columns: REPORT_COLUMNS }, async function* () {
    yield rows;
  });
}
