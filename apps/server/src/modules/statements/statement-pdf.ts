import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { Decimal } from '@platform/domain';
import type { AccountStatement } from './account-statement.ts';
import {
  DEAL_HEADINGS,
  MOVEMENT_HEADINGS,
  instrumentText,
  modeText,
  moneyText,
  statementDecimals,
  periodText,
  rateText,
  sideText,
  timeText,
  walletText,
} from './statement-format.ts';

/**
 * The account statement as a PDF (pdfkit): A4 landscape, the broker's name and logo at the top, the client, wallet
 * and period, the summary that reconciles the opening balance with the closing one, the deals closed in the period,
 * every movement with its running balance, and on each page a footer with the page number. DejaVu Sans is embedded
 * so any Latin, Greek or Cyrillic name prints as written.
 */

const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
// Fonts are named by their paths, not registered under an alias: pdfkit's tables set each cell's font by its source,
// and an alias's source (the path) would miss the cache and parse the file again for every cell.
const REGULAR = path.join(fonts, 'DejaVuSansCondensed.ttf');
const BOLD = path.join(fonts, 'DejaVuSansCondensed-Bold.ttf');

const MARGIN = 36;
const INK = '#212529';
const MUTED = '#6c757d';
const RULE = '#dee2e6';
const HEAD_BG = '#e9ecef';
const TOTAL_BG = '#f1f3f5';
const RED = '#c92a2a';
const GREEN = '#2b8a3e';
/** Room a table row needs before the page's end; below it the table goes on on a new page, headings repeated. */
const ROW_ROOM = 28;
/** Rows laid out between two turns of the event loop. */
const SLICE = 200;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Doc = InstanceType<typeof PDFDocument>;
type Money = (d: Decimal) => string;
type Cell = string | { text: string; align?: 'center' | { x: 'left' | 'right' | 'center' }; textColor?: string };

const right = (text: string, color?: string): Cell => ({ text, align: { x: 'right' }, textColor: color });
const signed = (d: { isNegative(): boolean; isZero(): boolean }) =>
  d.isZero() ? undefined : d.isNegative() ? RED : GREEN;

/** The built-in logo (the web app's /logo.svg) drawn as vectors: a gradient tile with three bars and a trend line. */
function drawDefaultLogo(doc: Doc, x: number, y: number, size: number): void {
  doc
    .save()
    .translate(x, y)
    .scale(size / 64);
  const grad = doc.linearGradient(2, 62, 62, 2).stop(0, '#1c7ed6').stop(1, '#20c997');
  doc.roundedRect(2, 2, 60, 60, 14).fill(grad);
  doc.fillColor('#ffffff');
  for (const [bx, by, h] of [
    [14, 30, 18],
    [28.5, 22, 26],
    [43, 14, 34],
  ])
    doc.roundedRect(bx, by, 7, h, 2).fill();
  doc
    .moveTo(12, 26)
    .lineTo(25, 17)
    .lineTo(36, 21)
    .lineTo(52, 10)
    .lineWidth(3)
    .lineCap('round')
    .lineJoin('round')
    .strokeOpacity(0.85)
    .stroke('#ffffff');
  doc.restore();
}

function header(doc: Doc, s: AccountStatement): void {
  const top = MARGIN;
  let x = MARGIN;
  const logo = s.broker.logo;
  if (logo?.kind === 'default') {
    drawDefaultLogo(doc, x, top, 40);
    x += 52;
  } else if (logo?.kind === 'image') {
    try {
      doc.image(logo.data, x, top, { fit: [120, 40], valign: 'center' });
      x += 132;
    } catch {
      // A logo that passed the upload's check of its first bytes but does not decode: the name stands alone.
    }
  }
  doc
    .font(BOLD)
    .fontSize(18)
    .fillColor(INK)
    .text(s.broker.name, x, top + 2, { width: 420, lineBreak: false });
  doc
    .font(REGULAR)
    .fontSize(10)
    .fillColor(MUTED)
    .text('Account statement', x, top + 25);
  const rightEdge = doc.page.width - MARGIN;
  doc
    .fontSize(8)
    .text(`Issued ${timeText(s.issuedAt)} UTC`, rightEdge - 220, top + 4, { width: 220, align: 'right' })
    .text(`Statement of ${walletText(s)}`, rightEdge - 220, top + 16, { width: 220, align: 'right' });
  doc
    .moveTo(MARGIN, top + 48)
    .lineTo(rightEdge, top + 48)
    .lineWidth(0.75)
    .strokeOpacity(1)
    .stroke(RULE);

  const blocks: Array<[string, string[]]> = [
    ['Client', [s.client.name, `Client ID ${s.client.id}`, s.client.email]],
    ['Wallet', [`#${s.wallet.id}`, `${s.wallet.currency}, ${modeText(s.wallet.mode)} account`]],
    ['Period', [periodText(s.period)]],
  ];
  const width = (rightEdge - MARGIN) / 3;
  blocks.forEach(([title, lines], i) => {
    const bx = MARGIN + i * width;
    doc
      .font(BOLD)
      .fontSize(8)
      .fillColor(MUTED)
      .text(title.toUpperCase(), bx, top + 58, { width: width - 12 });
    doc.font(REGULAR).fontSize(9.5).fillColor(INK);
    for (const line of lines) doc.text(line, { width: width - 12 });
  });
  doc.x = MARGIN;
  doc.y = top + 112;
}

function sectionTitle(doc: Doc, title: string, note?: string): void {
  if (doc.y + 60 > doc.page.maxY()) doc.addPage();
  doc
    .font(BOLD)
    .fontSize(11)
    .fillColor(INK)
    .text(title, MARGIN, doc.y + 6);
  if (note)
    doc
      .font(REGULAR)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(note, MARGIN, doc.y + 1);
  doc.moveDown(0.4);
  doc.x = MARGIN;
}

/**
 * A table whose headings come back at the top of every page it runs onto. Rows are given one by one; `style` marks
 * a row as a total (bold on grey).
 */
function table(doc: Doc, columns: Array<number | '*'>, headings: readonly string[], maxWidth?: number) {
  const bold = new Set<number>();
  let index = 0;
  const start = () => {
    doc.font(REGULAR).fontSize(7.5).fillColor(INK);
    index = 0;
    bold.clear();
    bold.add(0);
    const t = doc.table({
      position: { x: MARGIN },
      maxWidth: maxWidth ?? doc.page.width - 2 * MARGIN,
      columnStyles: columns,
      defaultStyle: { border: { bottom: 0.5 }, borderColor: RULE, padding: [3, 4] },
      rowStyles: (i) => (bold.has(i) ? { backgroundColor: i === 0 ? HEAD_BG : TOTAL_BG } : undefined),
    });
    t.row(headings.map((h, i) => ({ text: h, font: { src: BOLD }, align: i === 0 ? undefined : alignOf(h) })));
    return t;
  };
  const alignOf = (h: string) =>
    /^(Amount|Open price|Close price|P\/L|Swap|Commission|Net|Balance)$/.test(h) ? { x: 'right' as const } : undefined;
  let t = start();
  return {
    row(cells: Cell[], total = false) {
      if (doc.y + ROW_ROOM > doc.page.maxY()) {
        t.end();
        doc.addPage();
        t = start();
      }
      index++;
      if (total) bold.add(index);
      t.row(
        cells.map((c) => {
          const cell = typeof c === 'string' ? { text: c } : c;
          return total ? { ...cell, font: { src: BOLD } } : cell;
        }),
      );
    },
    end() {
      t.end();
      doc.x = MARGIN;
      doc.moveDown(0.6);
    },
  };
}

function summary(doc: Doc, s: AccountStatement, moneyText: Money): void {
  sectionTitle(doc, 'Summary', `Amounts in ${s.wallet.currency}. Times in UTC.`);
  const t = table(doc, ['*', 70, 110], ['', 'Entries', 'Amount'], 380);
  t.row(['Opening balance', '', right(moneyText(s.opening))], true);
  for (const line of s.totals)
    t.row([line.label, right(String(line.count)), right(moneyText(line.amount), signed(line.amount))]);
  t.row(['Change in the period', right(String(s.movements.length)), right(moneyText(s.change), signed(s.change))]);
  t.row(['Closing balance', '', right(moneyText(s.closing))], true);
  if (s.equity) {
    const n = s.equity.openPositions;
    t.row([
      `Floating P/L of ${n} open position${n === 1 ? '' : 's'}`,
      '',
      right(moneyText(s.equity.floatingPl), signed(s.equity.floatingPl)),
    ]);
    t.row(['Closing equity (balance + floating P/L)', '', right(moneyText(s.equity.equity))], true);
  }
  t.end();
  doc
    .font(REGULAR)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      `Opening balance ${moneyText(s.opening)} + movements ${moneyText(s.change)} = closing balance ${moneyText(s.closing)}.` +
        (s.equity ? '' : ' Equity is given for a period that reaches the present.'),
      MARGIN,
      doc.y - 4,
    );
  doc.moveDown(0.8);
}

async function deals(doc: Doc, s: AccountStatement, moneyText: Money): Promise<void> {
  sectionTitle(
    doc,
    `Deals closed in the period (${s.deals.length})`,
    "P/L is after the spread. Swap and commission are each deal's over its life; Net = P/L + swap + commission. What was booked in this period is under Movements.",
  );
  const t = table(doc, [40, 58, 30, 50, 80, 56, 80, 56, 58, 50, 58, 58, '*'], DEAL_HEADINGS);
  if (s.deals.length === 0)
    t.row(['', 'No deals were closed in this period.', '', '', '', '', '', '', '', '', '', '', '']);
  for (const [i, d] of s.deals.entries()) {
    if (i % SLICE === SLICE - 1) await nextTurn();
    t.row([
      String(d.id),
      instrumentText(d.instrument),
      sideText(d.side),
      right(d.amount.toString()),
      timeText(d.openTime),
      right(rateText(d.openRate)),
      timeText(d.closeTime),
      right(rateText(d.closeRate)),
      right(moneyText(d.pl), signed(d.pl)),
      right(moneyText(d.swap), signed(d.swap)),
      right(moneyText(d.commission), signed(d.commission)),
      right(moneyText(d.net), signed(d.net)),
      d.partialOf ? `${d.reason} (part of #${d.partialOf})` : d.reason,
    ]);
  }
  const k = s.dealTotals;
  t.row(
    [
      'Total',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      right(moneyText(k.pl)),
      right(moneyText(k.swap)),
      right(moneyText(k.commission)),
      right(moneyText(k.net)),
      '',
    ],
    true,
  );
  t.end();
}

async function movements(doc: Doc, s: AccountStatement, moneyText: Money): Promise<void> {
  sectionTitle(
    doc,
    `Movements (${s.movements.length})`,
    'Every entry of the ledger in the period, with the balance after it.',
  );
  const t = table(doc, [96, 44, 140, 70, '*', 80, 80], MOVEMENT_HEADINGS);
  const start = s.period.from ? timeText(s.period.from) : '';
  t.row([start, '', 'Opening balance', '', '', '', right(moneyText(s.opening))], true);
  for (const [i, m] of s.movements.entries()) {
    if (i % SLICE === SLICE - 1) await nextTurn();
    t.row([
      timeText(m.time),
      String(m.id),
      m.label,
      m.reference,
      m.note.length > 90 ? `${m.note.slice(0, 89)}…` : m.note,
      right(moneyText(m.amount), signed(m.amount)),
      right(moneyText(m.balance)),
    ]);
  }
  t.row(
    [
      timeText(s.period.to),
      '',
      'Closing balance',
      '',
      'Total of the movements',
      right(moneyText(s.change)),
      right(moneyText(s.closing)),
    ],
    true,
  );
  t.end();
}

/** The footer of the page just begun: who, which wallet and period, and the page's number. */
function footer(doc: Doc, s: AccountStatement, page: number): void {
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  const y = doc.page.height - 24;
  const width = doc.page.width - 2 * MARGIN;
  doc
    .font(REGULAR)
    .fontSize(7)
    .fillColor(MUTED)
    .text(`${s.broker.name} · Account statement · ${walletText(s)} · ${periodText(s.period)}`, MARGIN, y, {
      width: width - 80,
      lineBreak: false,
    })
    .text(`Page ${page}`, MARGIN + width - 80, y, { width: 80, align: 'right', lineBreak: false });
  doc.page.margins.bottom = bottom;
  doc.x = MARGIN;
  doc.y = doc.page.margins.top;
}

/**
 * The statement as a PDF stream, written page by page as the response reads it: the rows are laid out in slices with
 * a turn of the event loop between them, so a long statement neither holds its pages in memory nor blocks the server.
 */
export function statementPdf(s: AccountStatement): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN + 12, left: MARGIN, right: MARGIN },
    info: {
      Title: `Account statement ${walletText(s)}`,
      Author: s.broker.name,
      Subject: `${s.client.name}, ${periodText(s.period)}`,
      CreationDate: s.issuedAt,
    },
  });
  let page = 1;
  footer(doc, s, page);
  doc.on('pageAdded', () => footer(doc, s, ++page));
  const places = statementDecimals(s);
  const money: Money = (d) => moneyText(d, places);
  (async () => {
    header(doc, s);
    summary(doc, s, money);
    await deals(doc, s, money);
    await movements(doc, s, money);
    doc.end();
  })().catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return doc;
}
