import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import {
  LEAD_CSV_COLUMNS,
  LEAD_CSV_HEADER_ALIASES,
  LEAD_CSV_MAX_ROWS,
  normaliseCsvHeader,
  type LeadCsvColumn,
} from '@platform/domain';
import { AppError } from '../../lib/errors.ts';

/**
 * Reading a leads CSV file (back-office §2 Upload Leads): the upload request checks a file with it before queueing the
 * import, and the import job reads the rows with it. Both read the same way, so a file the upload accepted reads the
 * same in the job.
 */

export interface CsvHeader {
  /** The index of each known column in a row. */
  index: Partial<Record<LeadCsvColumn, number>>;
  /** Headers nobody reads (named in the report). */
  ignored: string[];
}
export interface CsvRow {
  record: string[];
  /** The line the row ends on: the row number the report gives. */
  line: number;
}

const OPTIONS = {
  bom: true,
  skip_empty_lines: true,
  relax_column_count: true,
  trim: true,
  info: true,
  max_record_size: 64 * 1024,
} as const;
/** Bytes handed to the parser at a time, and rows read between turns of the event loop. */
const SLICE_BYTES = 64 * 1024;
const ROWS_PER_TURN = 1_000;

/** The header row mapped to columns; a file without a firstName column is refused. */
function readHeader(header: string[]): CsvHeader {
  const index: CsvHeader['index'] = {};
  const ignored: string[] = [];
  header.forEach((h, i) => {
    const column = LEAD_CSV_HEADER_ALIASES[normaliseCsvHeader(h)];
    if (column && index[column] === undefined) index[column] = i;
    else if (h.trim() !== '') ignored.push(h.trim().slice(0, 60));
  });
  if (index.firstName === undefined) {
    throw new AppError(
      'VALIDATION',
      `The file needs a header row with a firstName column; the columns are: ${LEAD_CSV_COLUMNS.join(', ')}.`,
    );
  }
  return { index, ignored };
}

/**
 * Parses the file a slice at a time and gives the event loop a turn every thousand rows: a 32 MB file parsed in one
 * go would hold the server (its requests, prices and sockets) for about a second. Stops at the first problem with
 * the message the upload answers: unreadable, no header, more rows than a file may hold, empty, no data rows.
 */
async function readCsv(
  data: Buffer,
  keepRows: boolean,
): Promise<{ header: CsvHeader; rowCount: number; rows: CsvRow[] }> {
  const slices: Buffer[] = [];
  for (let i = 0; i < data.length; i += SLICE_BYTES) slices.push(data.subarray(i, i + SLICE_BYTES));
  const parser = Readable.from(slices).pipe(parse(OPTIONS));
  let header: CsvHeader | null = null;
  let rowCount = 0;
  const rows: CsvRow[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = readHeader(record);
        continue;
      }
      if (++rowCount > LEAD_CSV_MAX_ROWS) {
        throw new AppError(
          'VALIDATION',
          `At most ${LEAD_CSV_MAX_ROWS.toLocaleString('en')} leads per file; split the file and upload each part.`,
        );
      }
      if (keepRows) rows.push({ record, line: info.lines });
      if (rowCount % ROWS_PER_TURN === 0) await nextTurn();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('VALIDATION', `The file is not a readable CSV: ${(err as Error).message.slice(0, 200)}`);
  } finally {
    parser.destroy();
  }
  if (!header) throw new AppError('VALIDATION', 'The file is empty.');
  if (rowCount === 0) throw new AppError('VALIDATION', 'The file has a header but no leads.');
  return { header, rowCount, rows };
}

/** The upload's checks (a readable CSV with a firstName header and 1 to 200,000 rows); answers the number of rows. */
export async function checkLeadsCsv(data: Buffer): Promise<number> {
  return (await readCsv(data, false)).rowCount;
}

/** The import's read: the header and every data row with its line. */
export async function readLeadsCsv(data: Buffer): Promise<{ header: CsvHeader; rows: CsvRow[] }> {
  const { header, rows } = await readCsv(data, true);
  return { header, rows };
}
