import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dec, type Decimal } from '@platform/domain';
import type { AccountStatement } from './account-statement.ts';
import {
  DEAL_HEADINGS,
  MOVEMENT_HEADINGS,
  instrumentText,
  modeText,
  periodText,
  sideText,
  statementDecimals,
  walletText,
} from './statement-format.ts';

/**
 * The account statement as an XLSX workbook (exceljs, written as a stream): Summary (who, which wallet, the period,
 * opening balance, totals by kind, closing balance and equity), Deals and Movements. Amounts are number cells so a
 * spreadsheet sums them; each is written from the ledger's decimal and kept as text should a number cell not hold
 * it exactly (more than 15 significant digits).
 */

const TIME = 'yyyy-mm-dd hh:mm:ss';

/** A number cell's value that is exactly the decimal, else the decimal as text. */
export function exactNumber(d: Decimal): number | string {
  const n = d.toNumber();
  return dec(n).eq(d) ? n : d.toString();
}

type Sheet = ExcelJS.Worksheet;

function heading(sheet: Sheet, values: readonly string[]): void {
  const row = sheet.addRow([...values]);
  row.font = { bold: true };
  row.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE9ECEF' } };
  row.commit();
}

function summarySheet(book: ExcelJS.stream.xlsx.WorkbookWriter, s: AccountStatement, moneyFormat: string): void {
  const sheet = book.addWorksheet('Summary');
  sheet.columns = [{ width: 40 }, { width: 12 }, { width: 44 }];
  const line = (label: string, count: number | string, value: number | string | Date, bold = false) => {
    const row = sheet.addRow([label, count, value]);
    if (typeof value === 'number') row.getCell(3).numFmt = moneyFormat;
    if (value instanceof Date) row.getCell(3).numFmt = TIME;
    if (bold) row.font = { bold: true };
    row.commit();
  };
  line(s.broker.name, '', 'Account statement', true);
  line('Client', '', s.client.name);
  line('Client ID', '', String(s.client.id));
  line('Email', '', s.client.email);
  line('Wallet', '', walletText(s));
  line('Wallet ID', '', String(s.wallet.id));
  line('Currency', '', s.wallet.currency);
  line('Mode', '', modeText(s.wallet.mode));
  line('Period', '', periodText(s.period));
  line('Period start (UTC)', '', s.period.from ?? 'first movement');
  line('Period end (UTC)', '', s.period.to);
  line('Issued (UTC)', '', s.issuedAt);
  sheet.addRow([]).commit();
  heading(sheet, ['', 'Entries', `Amount (${s.wallet.currency})`]);
  line('Opening balance', '', exactNumber(s.opening), true);
  for (const t of s.totals) line(t.label, t.count, exactNumber(t.amount));
  line('Change in the period', s.movements.length, exactNumber(s.change));
  line('Closing balance', '', exactNumber(s.closing), true);
  if (s.equity) {
    line(`Floating P/L of open positions (${s.equity.openPositions})`, '', exactNumber(s.equity.floatingPl));
    line('Closing equity (balance + floating P/L)', '', exactNumber(s.equity.equity), true);
  }
  sheet.commit();
}

function dealsSheet(book: ExcelJS.stream.xlsx.WorkbookWriter, s: AccountStatement, moneyFormat: string): void {
  const sheet = book.addWorksheet('Deals', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [10, 12, 7, 12, 20, 12, 20, 12, 14, 12, 12, 14, 24].map((width) => ({ width }));
  heading(sheet, DEAL_HEADINGS);
  for (const d of s.deals) {
    const row = sheet.addRow([
      d.id,
      instrumentText(d.instrument),
      sideText(d.side),
      exactNumber(d.amount),
      d.openTime,
      exactNumber(d.openRate),
      d.closeTime,
      exactNumber(d.closeRate),
      exactNumber(d.pl),
      exactNumber(d.swap),
      exactNumber(d.commission),
      exactNumber(d.net),
      d.partialOf ? `${d.reason} (part of #${d.partialOf})` : d.reason,
    ]);
    row.getCell(5).numFmt = TIME;
    row.getCell(7).numFmt = TIME;
    for (const c of [9, 10, 11, 12]) row.getCell(c).numFmt = moneyFormat;
    row.commit();
  }
  const k = s.dealTotals;
  const total = sheet.addRow([
    'Total',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    exactNumber(k.pl),
    exactNumber(k.swap),
    exactNumber(k.commission),
    exactNumber(k.net),
    '',
  ]);
  total.font = { bold: true };
  for (const c of [9, 10, 11, 12]) total.getCell(c).numFmt = moneyFormat;
  total.commit();
  sheet.commit();
}

function movementsSheet(book: ExcelJS.stream.xlsx.WorkbookWriter, s: AccountStatement, moneyFormat: string): void {
  const sheet = book.addWorksheet('Movements', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [20, 10, 34, 16, 60, 16, 16].map((width) => ({ width }));
  heading(sheet, MOVEMENT_HEADINGS);
  const add = (values: Array<string | number | Date>, bold = false) => {
    const row = sheet.addRow(values);
    row.getCell(1).numFmt = TIME;
    row.getCell(6).numFmt = moneyFormat;
    row.getCell(7).numFmt = moneyFormat;
    if (bold) row.font = { bold: true };
    row.commit();
  };
  add([s.period.from ?? '', '', 'Opening balance', '', '', '', exactNumber(s.opening)], true);
  for (const m of s.movements)
    add([m.time, m.id, m.label, m.reference, m.note, exactNumber(m.amount), exactNumber(m.balance)]);
  add([s.period.to, '', 'Closing balance', '', '', exactNumber(s.change), exactNumber(s.closing)], true);
  sheet.commit();
}

/** The statement as an XLSX stream: sheets are written and committed one after another into it. */
export function statementXlsx(s: AccountStatement): Readable {
  // Amounts show as many decimals as the statement's amounts need, the same in every sheet.
  const money = `#,##0.${'0'.repeat(statementDecimals(s))}`;
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  book.creator = s.broker.name;
  book.created = s.issuedAt;
  book.title = `Account statement ${walletText(s)}`;
  summarySheet(book, s, money);
  dealsSheet(book, s, money);
  movementsSheet(book, s, money);
  book.commit().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
