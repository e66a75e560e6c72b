import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { PageMeta } from '@platform/domain';
import type { Walk } from './paging.ts';

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

/** Where an export's batches come from: one function call per batch of up to BATCH rows, until a short batch. */
type Batches<T> = () => AsyncGenerator<T[]>;

/** Batches by page number: for short lists, and lists that cannot be walked by id. */
const byPage = <T>(page: (page: number, limit: number) => Promise<ListPage<T>>): Batches<T> =>
  async function* () {
    for (let n = 1; ; n++) {
      const { data } = await page(n, BATCH);
      yield data;
      if (data.length < BATCH) return;
    }
  };

/**
 * Batches by cursor, for lists that run newest first by id and take a Walk (lib/paging.ts): each batch starts below
 * the last id written and nothing is counted, so every row is read once however long the list.
 */
const byCursor = <T extends { id: number }>(
  batch: (before: number | undefined, limit: number) => Promise<ListPage<T>>,
): Batches<T> =>
  async function* () {
    let before: number | undefined;
    for (;;) {
      const { data } = await batch(before, BATCH);
      // A list that ignored the cursor would repeat itself for ever: refuse rather than stream without end.
      if (before !== undefined && data.length > 0 && data[0].id >= before)
        throw new Error('export cursor did not advance');
      yield data;
      if (data.length < BATCH) return;
      before = data[data.length - 1].id;
    }
  };

/**
 * Streams every row of a list as CSV, batch by batch, with the caller's filters, search and scope unchanged, so an
 * export holds exactly the rows the screen would show across its pages, and never more than one batch is in memory.
 */
export function sendCsv<T>(reply: FastifyReply, spec: CsvExport<T>, batches: Batches<T>): FastifyReply {
  async function* rows(): AsyncGenerator<string[]> {
    for await (const data of batches())
      for (const row of data) yield spec.columns.map((c) => neutraliseFormula(String(c.value(row) ?? '')));
  }
  // A BOM so spreadsheet programs read the UTF-8 names right.
  const csv = Readable.from(rows()).pipe(
    stringify({ header: true, columns: spec.columns.map((c) => c.header), bom: true, record_delimiter: 'windows' }),
  );
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${spec.name}-${day}.csv"`)
    .send(csv);
}

/**
 * A list route's answer: the page as JSON, or with `format=csv` every matching row as a CSV download. Keeps list
 * routes one line whether or not they export. `walk: true` for lists that take a Walk (trades, customers, leads: the
 * ones that grow to millions), which are then exported by cursor instead of by page.
 */
export async function listOrCsv<Q extends { page: number; limit: number; format?: 'csv' }, T>(
  reply: FastifyReply,
  q: Q,
  list: (q: Q & Walk) => Promise<ListPage<T>>,
  spec: CsvExport<T>,
  opts: { walk?: T extends { id: number } ? true : never } = {},
): Promise<ListPage<T> | FastifyReply> {
  if (q.format !== 'csv') return list(q);
  if (opts.walk) {
    const walked = list as unknown as (q: Q & Walk) => Promise<ListPage<T & { id: number }>>;
    return sendCsv(
      reply,
      spec,
      byCursor((before, limit) => walked({ ...q, page: 1, limit, before, uncounted: true })),
    );
  }
  return sendCsv(
    reply,
    spec,
    byPage((page, limit) => list({ ...q, page, limit })),
  );
}
