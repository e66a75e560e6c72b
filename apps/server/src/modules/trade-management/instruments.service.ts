import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  dec,
  decimalsOf,
  defaultDigits,
  type AdminInstrumentDto,
  type AdminInstrumentListResponse,
  type Category,
  type InstrumentInput,
  type PagedQuery,
  type ServerEvents,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { instruments, orders } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';
import { ensureHistory } from '../../market/candle-history.ts';
import { swapRatesOf } from '../../market/service.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import type { Quote } from '../../market/price-book.ts';
import { reloadFeeds, reloadInstruments, type Actor, type SyncLog } from './market-sync.ts';

type Row = typeof instruments.$inferSelect;
export type InstrumentCtx = Pick<AppContext, 'db' | 'market' | 'config' | 'realtime' | 'cluster'>;

/** Prices are stored and shown with at most this many decimals (the money columns' scale). */
const MAX_DIGITS = 8;

const nameTaken = () =>
  new AppError('INSTRUMENT_NAME_TAKEN', undefined, { name: 'An instrument with this name already exists.' });

/** True for a PostgreSQL foreign-key violation (23503), looking through Drizzle's wrapper as isUniqueViolation does. */
function isForeignKeyViolation(err: unknown): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

function toDto(row: Row, ctx: Pick<AppContext, 'market'>, openPositions: number): AdminInstrumentDto {
  // The live quote when the market has one, else the last stored price.
  const q = ctx.market.book.get(row.name);
  const price = (live: number | undefined, stored: string | null) =>
    live !== undefined ? live.toFixed(row.digits) : stored === null ? null : dec(stored).toFixed(row.digits);
  return {
    id: row.id,
    name: row.name,
    base: row.base,
    quote: row.quote,
    alias: row.alias,
    category: row.category as Category,
    tradingview: row.tradingview,
    leverage: row.leverage,
    tradable: row.tradable,
    swap: dec(row.swap).toString(),
    ...swapRatesOf(row),
    digits: row.digits,
    contract_size: row.contractSize === null ? null : dec(row.contractSize).toString(),
    bids: price(q?.bid, row.bids),
    asks: price(q?.ask, row.asks),
    open_positions: openPositions,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the audit trail keeps of an instrument. */
const snapshot = (r: Row): Record<string, unknown> => ({
  name: r.name,
  base: r.base,
  quote: r.quote,
  alias: r.alias,
  category: r.category,
  tradingview: r.tradingview,
  leverage: r.leverage,
  tradable: r.tradable,
  swap: dec(r.swap).toString(),
  swapLong: dec(r.swapLong).toString(),
  swapShort: dec(r.swapShort).toString(),
  digits: r.digits,
  contractSize: r.contractSize === null ? null : dec(r.contractSize).toString(),
  bids: r.bids === null ? null : dec(r.bids).toString(),
  asks: r.asks === null ? null : dec(r.asks).toString(),
});

async function openPositionsOf(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ id: orders.instrumentId, n: count() })
    .from(orders)
    .where(and(inArray(orders.instrumentId, ids), isNull(orders.closeTime)))
    .groupBy(orders.instrumentId);
  for (const r of rows) map.set(r.id, r.n);
  return map;
}

/** GET /admin/instruments/api/{type}: one category, newest first, searched by name, alias, base or quote. */
export async function listInstruments(
  ctx: Pick<AppContext, 'db' | 'market'>,
  type: Category,
  q: PagedQuery,
): Promise<AdminInstrumentListResponse> {
  const where = and(
    eq(instruments.category, type),
    searchAny(q.search, [instruments.name, instruments.alias, instruments.base, instruments.quote]),
  );
  const [{ n }] = await ctx.db.select({ n: count() }).from(instruments).where(where);
  const rows = await ctx.db
    .select()
    .from(instruments)
    .where(where)
    .orderBy(desc(instruments.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const open = await openPositionsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { data: rows.map((r) => toDto(r, ctx, open.get(r.id) ?? 0)), meta: pageMeta(q, n) };
}

/** Decimal places that show the given prices in full, never fewer than `base`. */
const digitsFor = (base: number, input: Pick<InstrumentInput, 'bids' | 'asks'>): number =>
  Math.min(MAX_DIGITS, Math.max(base, decimalsOf(input.bids), decimalsOf(input.asks)));

/**
 * Puts a price staff typed into the live book. Only for categories the simulated feed prices (it then walks on from
 * there); a real provider's next quote is the price of its instruments. An open market hears it like a tick
 * (dashboards, charts, the risk engine); a closed one only holds it until it opens.
 */
function setPrice(ctx: InstrumentCtx, row: InstrumentRow, quote: Pick<Quote, 'bid' | 'ask'>, announce: boolean): void {
  if ((ctx.market.feeds?.sources()[row.category] ?? 'simulated') !== 'simulated') return;
  const q: Quote = {
    name: row.name,
    bid: quote.bid,
    ask: quote.ask,
    closeoutBid: quote.bid,
    closeoutAsk: quote.ask,
    time: Date.now(),
  };
  if (announce && ctx.market.isOpen(row.category)) ctx.market.book.apply([q]);
  else ctx.market.book.prime([q]);
}

/**
 * After a committed change: the in-memory registry first (orders, the risk engine and the dashboard list read it),
 * then the book, then the feeds, which restart the providers whose instrument list changed, then the dashboards.
 */
async function syncMarket(
  ctx: InstrumentCtx,
  log: SyncLog,
  after: Row | null,
  price: Pick<Quote, 'bid' | 'ask'> | null,
  announce = true,
): Promise<void> {
  await reloadInstruments(ctx, log);
  const row = after ? ctx.market.instruments.byIdOf(after.id) : undefined;
  if (row && price) {
    try {
      setPrice(ctx, row, price, announce);
    } catch (err) {
      log('applying the instrument price failed', err);
    }
  }
  await reloadFeeds(ctx, log);
  // Open dashboards reload the catalogue now rather than when their copy goes stale.
  const change: Parameters<ServerEvents['instrumentsChanged']>[0] = { at: Date.now() };
  ctx.realtime.broadcast('instrumentsChanged', change);
}

const priceOf = (input: Pick<InstrumentInput, 'bids' | 'asks'>): { bid: number; ask: number } | null =>
  input.bids !== null && input.asks !== null ? { bid: Number(input.bids), ask: Number(input.asks) } : null;

/** The columns an admin sets directly; price and digits follow their own rules. */
const editableFields = (input: InstrumentInput) => ({
  name: input.name,
  base: input.base,
  quote: input.quote,
  alias: input.alias,
  category: input.category,
  tradingview: input.tradingview,
  leverage: input.leverage,
  tradable: input.tradable,
  // The spec's single swap is the rate of a side the form leaves empty.
  swap: input.swap,
  swapLong: input.swapLong ?? input.swap,
  swapShort: input.swapShort ?? input.swap,
  // An edit that does not name it keeps the instrument's; null returns to the category's default.
  ...(input.contractSize !== undefined ? { contractSize: input.contractSize } : {}),
});

/** POST /admin/instruments */
export async function createInstrument(
  ctx: InstrumentCtx,
  actor: Actor,
  input: InstrumentInput,
  log: SyncLog,
): Promise<AdminInstrumentDto> {
  let row: Row;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(instruments)
        .values({
          ...editableFields(input),
          digits: digitsFor(defaultDigits(input.category, input.quote), input),
          bids: input.bids,
          asks: input.asks,
        })
        .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'instrument.create',
        before: null,
        after: { id: created.id, ...snapshot(created) },
        ip: actor.ip,
      });
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'instruments_name_unique')) throw nameTaken();
    throw err;
  }
  const price = priceOf(input);
  await syncMarket(ctx, log, row, price);
  // Charts of a simulated instrument get the same generated history the seeded ones got at the first start.
  const registered = ctx.market.instruments.byIdOf(row.id);
  if (price && registered && (ctx.market.feeds?.sources()[registered.category] ?? 'simulated') === 'simulated') {
    try {
      await ensureHistory(ctx.db, [registered], Date.now(), ctx.config.FEED_SEED);
    } catch (err) {
      log('generating candle history failed', err);
    }
  }
  return toDto(row, ctx, 0);
}

/**
 * PUT /admin/instruments/{id}. Bid and ask set a new price when given and keep the current one when both are empty.
 * While positions are open the name, base, quote and category stay as they are: open positions are priced and
 * settled by them.
 */
export async function updateInstrument(
  ctx: InstrumentCtx,
  actor: Actor,
  id: number,
  input: InstrumentInput,
  log: SyncLog,
): Promise<AdminInstrumentDto> {
  const price = priceOf(input);
  let result: { before: Row; after: Row; open: number };
  try {
    result = await ctx.db.transaction(async (tx) => {
      // The lock also holds back orders opening on this instrument (their foreign-key check waits) until commit.
      const [before] = await tx.select().from(instruments).where(eq(instruments.id, id)).for('update');
      if (!before) throw new AppError('INSTRUMENT_NOT_FOUND');
      const open = (await openPositionsOf(tx, [id])).get(id) ?? 0;
      const identityChanged =
        before.name !== input.name ||
        before.base !== input.base ||
        before.quote !== input.quote ||
        before.category !== input.category;
      if (open > 0 && identityChanged) throw new AppError('INSTRUMENT_IN_USE');
      const [after] = await tx
        .update(instruments)
        .set({
          ...editableFields(input),
          ...(price ? { bids: input.bids, asks: input.asks, digits: digitsFor(before.digits, input) } : {}),
        })
        .where(eq(instruments.id, id))
        .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'instrument.update',
        before: { id, ...snapshot(before) },
        after: { id, ...snapshot(after) },
        ip: actor.ip,
      });
      return { before, after, open };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'instruments_name_unique')) throw nameTaken();
    throw err;
  }
  const { before, after, open } = result;
  // A renamed instrument keeps its current quote under the new name, so its price continues where it was.
  const carried = !price && before.name !== after.name ? ctx.market.book.get(before.name) : undefined;
  await syncMarket(ctx, log, after, price ?? (carried ? { bid: carried.bid, ask: carried.ask } : null), price !== null);
  return toDto(after, ctx, open);
}

/**
 * DELETE /admin/instruments/{id}: refused while positions are open (409), and for an instrument with closed trades
 * too, whose history refers to it; such an instrument is switched to not tradable instead.
 */
export async function deleteInstrument(ctx: InstrumentCtx, actor: Actor, id: number, log: SyncLog): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(instruments).where(eq(instruments.id, id)).for('update');
      if (!before) throw new AppError('INSTRUMENT_NOT_FOUND');
      if (((await openPositionsOf(tx, [id])).get(id) ?? 0) > 0) throw new AppError('INSTRUMENT_HAS_OPEN_POSITIONS');
      const [history] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.instrumentId, id)).limit(1);
      if (history) throw new AppError('INSTRUMENT_HAS_HISTORY');
      await tx.delete(instruments).where(eq(instruments.id, id));
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'instrument.delete',
        before: { id, ...snapshot(before) },
        after: null,
        ip: actor.ip,
      });
    });
  } catch (err) {
    // An order placed in the same instant: its row now refers to the instrument.
    if (isForeignKeyViolation(err)) throw new AppError('INSTRUMENT_HAS_HISTORY');
    throw err;
  }
  await syncMarket(ctx, log, null, null);
}
