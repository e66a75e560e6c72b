import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { type Decimal, dec } from '@platform/domain';
import { createTestApp, DEMO, PNG_BYTES, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, kycDocuments, ledgerEntries, orders, pricingPlans, users } from '../../db/schema.ts';
import { rolloverKit } from '../rollover/rollover-testing.ts';
import { runRolloverNow } from '../rollover/service.ts';
import { storeFile } from '../files/storage.ts';
import { getSetting, putSetting } from '../settings/service.ts';
import { moveMoney } from '../wallets/ledger.ts';
import { moneyText as money } from './statement-format.ts';
import { cellDec, pdfText, readWorkbook, solidPng } from './statement-testing.ts';

/**
 * The account statement (PDF and XLSX) of a real wallet with a deposit before the period and one in it, two EUR/USD
 * trades on a plan charging commission at open and close, a rollover's swap on both, a withdrawal and an adjustment:
 * read back with pdf.js and exceljs, its figures add up to the ledger of the period.
 */
let t: TestApp;
let admin: string;
const kit = rolloverKit(() => t);
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const TUESDAY = '2026-10-13';

let trader: { id: number; cookie: string; walletId: number };
let dealIds: number[];

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

async function move(walletId: number, kind: 'deposit' | 'withdrawal_hold' | 'adjustment', amount: string) {
  await t.ctx.db.transaction(async (tx) => {
    const refType = kind === 'deposit' ? 'deposit' : kind === 'adjustment' ? 'staff' : 'withdrawal';
    const moved = await moveMoney(tx, {
      balanceId: walletId,
      amount,
      kind,
      refType,
      refId: null,
      actorId: null,
      note: `Test ${kind}`,
    });
    if (!moved) throw new Error(`${kind} ${amount} refused`);
    kit.risk().engine.setWalletBalance(walletId, Number(moved.balanceAfter));
  });
}

/** Σ of the wallet's ledger entries in [from, to), by SQL: what the statement must agree with. */
async function ledgerSum(walletId: number, from?: Date, to?: Date, kind?: string) {
  const [{ s }] = await t.ctx.db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.balanceId, walletId),
        from ? gte(ledgerEntries.createdAt, from) : undefined,
        to ? lt(ledgerEntries.createdAt, to) : undefined,
        kind ? eq(ledgerEntries.kind, kind) : undefined,
      ),
    );
  return dec(s);
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  await kit.quietSchedule();
  await kit.setSwap('EUR_USD', '-3.6', '1.8');
  kit.price('EUR_USD', 1.1, 1.1002);
  const made = await kit.inject('POST', '/admin/pricing', admin, {
    name: 'Statement plan',
    price: '0',
    forexLeverage: 100,
    retail: false,
    forexCommission: '7',
    commissionCharge: 'both',
  });
  expect(made.statusCode, made.body).toBe(200);
  const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Statement plan'));
  const who = await kit.trader('statement', plan.id);
  await t.ctx.db.insert(kycDocuments).values({ userId: who.id, type: 'passport', status: 'approved' });
  // The real wallet, funded by deposits: one before the period (backdated ten days) and one in it.
  const [real] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, who.id), eq(balances.mode, 'real')));
  const switched = await kit.inject('POST', '/dashboard/switch-wallet', who.cookie, { balanceId: real.id });
  expect(switched.statusCode, switched.body).toBe(200);
  trader = { id: who.id, cookie: who.cookie, walletId: real.id };
  // The ledger is append-only: the earlier deposit is written as it would have been ten days ago.
  await t.ctx.db.transaction(async (tx) => {
    await tx.update(balances).set({ balance: '5000' }).where(eq(balances.id, real.id));
    await tx.insert(ledgerEntries).values({
      balanceId: real.id,
      kind: 'deposit',
      amount: '5000',
      balanceAfter: '5000',
      refType: 'deposit',
      note: 'Test deposit',
      createdAt: new Date(Date.now() - 10 * 86_400_000),
    });
  });
  kit.risk().engine.setWalletBalance(real.id, 5000);
  await move(real.id, 'deposit', '2500.5');

  const buy = await kit.place(who.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
  const sell = await kit.place(who.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '20000' });
  const rolled = await runRolloverNow(t.ctx, TUESDAY, { actorId: null });
  expect(rolled.result.charged).toBeGreaterThanOrEqual(2);
  kit.price('EUR_USD', 1.1015, 1.1017);
  for (const id of [buy.id, sell.id]) expect((await kit.close(who.cookie, id)).statusCode).toBe(200);
  dealIds = [buy.id, sell.id];
  await move(real.id, 'withdrawal_hold', '-300');
  await move(real.id, 'adjustment', '12.34');
  // A position still open: the closing equity adds its floating P/L.
  await kit.place(who.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '1000' });
  kit.price('EUR_USD', 1.102, 1.1022);
});
afterAll(() => t.close());

describe('account statement', () => {
  it('XLSX: Summary, Deals and Movements add up to the ledger of the period', async () => {
    const res = await get(`/api/statements/export?format=xlsx&dateStart=${yesterday}&dateEnd=${today}`, trader.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="statement-USD-real-${trader.walletId}-${yesterday}-${today}.xlsx"`,
    );
    const book = await readWorkbook(res.rawPayload);
    expect(book.sheets).toEqual(['Summary', 'Deals', 'Movements']);

    const from = new Date(`${yesterday}T00:00:00Z`);
    const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, trader.walletId));
    const opening = await ledgerSum(trader.walletId, undefined, from);
    const inPeriod = await ledgerSum(trader.walletId, from);
    expect(opening.toString()).toBe('5000');
    const value = (label: string) => cellDec(book.summary.get(label)?.value);
    expect(value('Opening balance').toString()).toBe(opening.toString());
    expect(value('Closing balance').toString()).toBe(dec(w.balance).toString());
    expect(value('Change in the period').toString()).toBe(inPeriod.toString());
    expect(opening.plus(inPeriod).toString()).toBe(dec(w.balance).toString());

    // Each kind's line is the ledger's sum of that kind in the period; together they are the change.
    const kinds: Array<[string, string[]]> = [
      ['Deposits', ['deposit']],
      ['Withdrawals', ['withdrawal_hold']],
      ['Trading profit/loss (before spread)', ['trade_pl']],
      ['Spread', ['spread']],
      ['Swap', ['swap']],
      ['Commission', ['commission']],
      ['Adjustments', ['adjustment']],
    ];
    let sum = dec(0);
    for (const [label, of] of kinds) {
      let expected = dec(0);
      for (const k of of) expected = expected.plus(await ledgerSum(trader.walletId, from, undefined, k));
      expect(value(label).toString(), label).toBe(expected.toString());
      sum = sum.plus(value(label));
    }
    expect(value('Deposits').toString()).toBe('2500.5');
    expect(value('Withdrawals').toString()).toBe('-300');
    expect(value('Swap').isZero()).toBe(false);
    expect(value('Commission').isNegative()).toBe(true);
    expect(sum.plus(value('Negative balance protection')).plus(value('Other movements')).toString()).toBe(
      inPeriod.toString(),
    );

    // Movements: opening row, every entry with the running balance, closing row; Σ amounts = the change.
    const rows = book.movements;
    expect(rows[0][2]).toBe('Opening balance');
    expect(rows.at(-1)?.[2]).toBe('Closing balance');
    const entries = rows.slice(1, -1);
    let running = opening;
    for (const r of entries) {
      running = running.plus(cellDec(r[5]));
      expect(cellDec(r[6]).toString()).toBe(running.toString());
    }
    expect(running.toString()).toBe(dec(w.balance).toString());
    const [{ n }] = await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.balanceId, trader.walletId), gte(ledgerEntries.createdAt, from)));
    expect(entries).toHaveLength(n);

    // Deals: both closed trades with their swap and commission as the orders hold them, and a total.
    const deals = book.deals.filter((r) => typeof r[0] === 'number');
    expect(deals.map((r) => r[0]).sort()).toEqual([...dealIds].sort());
    for (const r of deals) {
      const [o] = await t.ctx.db
        .select()
        .from(orders)
        .where(eq(orders.id, r[0] as number));
      expect(cellDec(r[8]).toString()).toBe(dec(o.proLoss ?? 0).toString());
      expect(cellDec(r[9]).toString()).toBe(dec(o.swap).toString());
      expect(cellDec(r[10]).toString()).toBe(dec(o.commission).toString());
      expect(dec(o.swap).isZero()).toBe(false);
      expect(dec(o.commission).isNegative()).toBe(true);
      expect(r[4]).toBeInstanceOf(Date);
      expect(r[6]).toBeInstanceOf(Date);
    }
    const total = book.deals.at(-1) as unknown[];
    expect(total[0]).toBe('Total');
    const swapOfDeals = deals.reduce((s, r) => s.plus(cellDec(r[9])), dec(0));
    expect(cellDec(total[9]).toString()).toBe(swapOfDeals.toString());
    // Every swap of these deals was booked today, so the deals' swap is the period's swap.
    expect(swapOfDeals.toString()).toBe(value('Swap').toString());

    // The period reaches now: equity = closing balance + the open position's floating P/L.
    const floating = value('Floating P/L of open positions (1)');
    expect(floating.isZero()).toBe(false);
    expect(value('Closing equity (balance + floating P/L)').toString()).toBe(dec(w.balance).plus(floating).toString());
  });

  it('PDF: a statement with the broker, client, wallet, period and the same figures', async () => {
    const res = await get(`/api/statements/export?format=pdf&dateStart=${yesterday}&dateEnd=${today}`, trader.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="statement-USD-real-${trader.walletId}-${yesterday}-${today}.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // STATEMENT_SAMPLE_DIR=/tmp keeps the file, to render it (pdftoppm) and look at it.
    const keep = process.env.STATEMENT_SAMPLE_DIR;
    if (keep) fs.writeFileSync(path.join(keep, 'statement-sample.pdf'), res.rawPayload);
    const text = await pdfText(res.rawPayload);
    // Every amount is printed with the decimals the finest of them needs (the swap has four).
    const places = /Opening balance 5,000\.(\d+) \+/.exec(text)?.[1].length ?? 0;
    expect(places).toBeGreaterThanOrEqual(2);
    const moneyText = (d: Decimal) => money(d, places);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, trader.id));
    const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, trader.walletId));
    const from = new Date(`${yesterday}T00:00:00Z`);
    for (const expected of [
      'Account statement',
      u.fullName,
      `Client ID ${trader.id}`,
      u.email,
      `#${trader.walletId}`,
      'USD, Real account',
      `${yesterday} to ${today}`,
      'Opening balance',
      moneyText(dec(5000)),
      'Closing balance',
      moneyText(dec(w.balance)),
      moneyText(await ledgerSum(trader.walletId, from)),
      moneyText(await ledgerSum(trader.walletId, from, undefined, 'swap')),
      moneyText(await ledgerSum(trader.walletId, from, undefined, 'commission')),
      moneyText(dec('2500.5')),
      moneyText(dec('-300')),
      'Closing equity (balance + floating P/L)',
      `Deals closed in the period (2)`,
      'EUR/USD',
      ...dealIds.map(String),
      'Page 1',
      'Page 2',
    ])
      expect(text, expected).toContain(expected);
    expect(text).toContain(
      `Opening balance ${moneyText(dec(5000))} + movements ${moneyText(await ledgerSum(trader.walletId, from))} = closing balance ${moneyText(dec(w.balance))}.`,
    );
  });

  it('CSV stays the closed trades of the spec, by default and by format=csv', async () => {
    for (const q of ['', '&format=csv']) {
      const res = await get(`/api/statements/export?dateStart=${yesterday}&dateEnd=${today}${q}`, trader.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = res.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toMatch(/^ID,Open Time,Close Time/);
      for (const id of dealIds) expect(lines.some((l) => l.startsWith(`${id},`))).toBe(true);
    }
  });

  it('a period before any movement has equal opening and closing balances and no equity', async () => {
    const res = await get('/api/statements/export?format=xlsx&dateStart=2020-01-01&dateEnd=2020-12-31', trader.cookie);
    expect(res.statusCode).toBe(200);
    const book = await readWorkbook(res.rawPayload);
    expect(cellDec(book.summary.get('Opening balance')?.value).toString()).toBe('0');
    expect(cellDec(book.summary.get('Closing balance')?.value).toString()).toBe('0');
    expect(book.summary.has('Closing equity (balance + floating P/L)')).toBe(false);
    expect(book.movements).toHaveLength(2);
  });

  it("refuses bad dates, long or reversed ranges and unknown formats with 400, and others' wallets with 404", async () => {
    for (const q of [
      'format=pdf&dateStart=2025-02-30',
      'format=pdf&dateStart=2025-13-01',
      'format=xlsx&dateStart=1969-12-31',
      'format=pdf&dateStart=2015-01-01&dateEnd=2025-01-01',
      'format=pdf&dateStart=2025-03-02&dateEnd=2025-03-01',
      'format=doc',
      'format=pdf&walletId=abc',
    ]) {
      const res = await get(`/api/statements/export?${q}`, trader.cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toBeTruthy();
    }
    const [theirs] = await t.ctx.db
      .select()
      .from(balances)
      .where(eq(balances.userId, (await kit.trader('other')).id));
    for (const format of ['pdf', 'xlsx', 'csv']) {
      const res = await get(`/api/statements/export?format=${format}&walletId=${theirs.id}`, trader.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Wallet not found.');
    }
    expect(
      (await get('/api/statements/export?format=pdf&dateStart=2021-01-01&dateEnd=2025-12-31', trader.cookie))
        .statusCode,
    ).toBe(200);
  });

  it("prints the broker's name and uploaded logo from Site Settings", async () => {
    const before = await getSetting(t.ctx.db, 'branding');
    const logo = async (data: Buffer) => {
      const file = await storeFile(t.ctx, t.ctx.db, { field: 'appLogo', filename: 'logo.png', data }, 'logo', null);
      await putSetting(t.ctx.db, 'branding', { value1: 'Acme Markets Ltd', file });
      const res = await get('/api/statements/export?format=pdf', trader.cookie);
      expect(res.statusCode).toBe(200);
      expect(await pdfText(res.rawPayload)).toContain('Acme Markets Ltd');
      return res.rawPayload.includes('/Subtype /Image');
    };
    try {
      expect(await logo(solidPng(120, 40, [200, 30, 60]))).toBe(true);
      // A logo whose first bytes say PNG but which does not decode leaves the name alone; the statement is issued.
      expect(await logo(PNG_BYTES)).toBe(false);
    } finally {
      await putSetting(t.ctx.db, 'branding', { value1: before?.value1 ?? null, file: before?.file ?? null });
    }
  });

  it('will not issue a statement whose ledger does not reconcile with the balance', async () => {
    const other = await kit.trader('unbalanced');
    await t.ctx.db.insert(ledgerEntries).values({
      balanceId: other.walletId,
      kind: 'adjustment',
      amount: '1',
      balanceAfter: '10001',
      note: 'entry without its balance change',
    });
    const res = await get('/api/statements/export?format=pdf', other.cookie);
    expect(res.statusCode).toBe(500);
  });
});
