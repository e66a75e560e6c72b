import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { PageMeta } from '@platform/domain';

/** One column of an export: its header and how to read the cell from a row of the list. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

export interface CsvExport<T> {
  /** File name without extension; the date is appended. */
  name: string;
  columns: ReadonlyArray<CsvColumn<T>>;
}

type ListPage<T> = { data: T[]; meta: PageMeta };

/** Rows fetched per database round trip while streaming an export. */
const BATCH = 1000;

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) gets a leading apostrophe; plain
 * negative numbers stay numbers.
 */
export function neutraliseFormula(v: string): string {
  return /^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v;
}

/**
 * Streams every row of a list as CSV: the list's own function is called page by page with the caller's filters,
 * search and scope unchanged, so an export holds exactly the rows the screen would show across its pages, and
 * never more than one batch is in memory.
 */
export function sendCsv<T>(reply: FastifyReply, spec: CsvExport<T>, page: (page: number, limit: number) => Promise<ListPage<T>>): FastifyReply {
  async function* rows(): AsyncGenerator<string[]> {
    for (let n = 1; ; n++) {
      const { data } = await page(n, BATCH);
      for (const row of data) yield spec.columns.map((c) => neutraliseFormula(String(c.value(row) ?? '')));
      if (data.length < BATCH) return;
    }
  }
  // A BOM so spreadsheet programs read the UTF-8 names right.
  const csv = Readable.from(rows()).pipe(stringify({ header: true, columns: spec.columns.map((c) => c.header), bom: true, record_delimiter: 'windows' }));
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${spec.name}-${day}.csv"`)
    .send(csv);
}

/**
 * A list route's answer: the page as JSON, or with `format=csv` every matching row as a CSV download. Keeps list
 * routes one line whether or not they export.
 */
export async function listOrCsv<Q extends { page: number; limit: number; format?: 'csv' }, T>(
  reply: FastifyReply,
  q: Q,
  list: (q: Q) => Promise<ListPage<T>>,
  spec: CsvExport<T>,
): Promise<ListPage<T> | FastifyReply> {
  if (q.format !== 'csv') return list(q);
  return sendCsv(reply, spec, (page, limit) => list({ ...q, page, limit }));
}
