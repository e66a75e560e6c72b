import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { dec, type Decimal } from '@platform/domain';

/** Reading a statement back as a person's tools would: the PDF's text (pdf.js) and the workbook's cells (exceljs). */

/** Every page's text, a line per text run, pages in order. */
export async function pdfText(data: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(data), verbosity: 0, useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(
      content.items
        .map((it) => ('str' in it ? it.str : ''))
        .filter((s) => s.trim() !== '')
        .join('\n'),
    );
  }
  await pdf.destroy();
  return pages.join('\n');
}

export async function pdfPages(data: Buffer): Promise<number> {
  const pdf = await getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const n = pdf.numPages;
  await pdf.destroy();
  return n;
}

export interface ReadWorkbook {
  sheets: string[];
  /** Summary: label (column A) → [entries (B), amount (C)]. */
  summary: Map<string, { count: unknown; value: unknown }>;
  /** Rows below the heading, as arrays of cell values (index 0 = column A). */
  deals: unknown[][];
  movements: unknown[][];
}

const values = (row: ExcelJS.Row): unknown[] => (row.values as unknown[]).slice(1);

export async function readWorkbook(data: Buffer): Promise<ReadWorkbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(data as unknown as ArrayBuffer);
  const rowsOf = (name: string) => {
    const out: unknown[][] = [];
    book.getWorksheet(name)?.eachRow((row, n) => {
      if (n > 1) out.push(values(row));
    });
    return out;
  };
  const summary = new Map<string, { count: unknown; value: unknown }>();
  book.getWorksheet('Summary')?.eachRow((row) => {
    const [label, count, value] = values(row);
    if (typeof label === 'string') summary.set(label, { count, value });
  });
  return {
    sheets: book.worksheets.map((w) => w.name),
    summary,
    deals: rowsOf('Deals'),
    movements: rowsOf('Movements'),
  };
}

/** A number cell as a decimal (the workbook writes the ledger's decimals exactly). */
export const cellDec = (v: unknown): Decimal => {
  if (typeof v !== 'number' && typeof v !== 'string') throw new Error(`not an amount: ${JSON.stringify(v)}`);
  return dec(v);
};

/** A valid PNG of w×h pixels in one colour (RGB), for a logo. */
export function solidPng(w: number, h: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: h }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
