import { dec, type SimulatorPriceResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { readKeys, routeCategories, type FeedSource } from '../../market/feed-manager.ts';
import type { Quote } from '../../market/price-book.ts';
import { instrumentBySymbol } from '../../market/service.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'cluster'>;

/** Who is acting, for the audit trail. */
export interface SimulatorActor {
  id: number;
  ip: string;
}

/** The request once the shared schema has checked it: exact decimal strings, bid ≤ ask, both within MAX_PRICE. */
export interface SimulatorPriceInput {
  instrument: string;
  bid: string;
  ask: string;
}

/** The real providers by the names staff know them from Trade APIs. */
const PROVIDER_NAMES: Record<Exclude<FeedSource, 'simulated'>, string> = {
  polygonForex: 'Polygon',
  polygonCrypto: 'Polygon',
  eodStock: 'EOD',
  oandaRest: 'Oanda',
};

/**
 * Puts a set quote where the instance's role says: an open market's quote is a tick of the leader's book (the one
 * whose ticks the risk engine acts on and every instance relays); a closed market's quote is held, without a tick, in
 * every instance's book (the leader publishes only ticks), and the feed walks on from it at the open.
 */
export function deliverSimulatedQuote(ctx: Pick<AppContext, 'market' | 'cluster'>, quote: Quote): void {
  const row = ctx.market.instruments.byNameOf(quote.name);
  if (!row) return;
  if (!ctx.market.isOpen(row.category)) ctx.market.book.prime([quote]);
  else if (ctx.cluster.leadership.isLeader) ctx.market.book.apply([quote]);
}

/** A quote forwarded by another instance on the `simulator` channel (it checked and audited it). */
export function isForwardedQuote(m: unknown): m is Quote {
  if (!m || typeof m !== 'object') return false;
  const q = m as Record<string, unknown>;
  return (
    typeof q.name === 'string' &&
    typeof q.bid === 'number' &&
    typeof q.ask === 'number' &&
    typeof q.closeoutBid === 'number' &&
    typeof q.closeoutAsk === 'number' &&
    typeof q.time === 'number' &&
    q.bid > 0 &&
    q.ask >= q.bid
  );
}

/**
 * POST /admin/simulator/price: the next quote of an instrument the embedded simulated feed prices, exactly as given.
 * It goes through the price book like a feed tick (risk engine: TP/SL and stop-out; realtime batches; candles; the
 * saved last quotes), and the feed's next move starts from it, since the feed walks on from whatever the book holds
 * when that differs from what it last published. Refused (409) for a category a real provider prices: its next
 * quote would overwrite the price at once. Audited before it applies, so no set price goes unrecorded.
 */
export async function setSimulatedPrice(
  ctx: Ctx,
  actor: SimulatorActor,
  input: SimulatorPriceInput,
  log: (msg: string, err: unknown) => void,
): Promise<SimulatorPriceResponse> {
  const row = instrumentBySymbol(ctx.market, input.instrument);
  const bid = dec(input.bid);
  const ask = dec(input.ask);
  // Prices are shown and filled at the instrument's digits: a finer price could not be quoted exactly.
  for (const [field, label, v] of [['bid', 'Bid', bid] as const, ['ask', 'Ask', ask] as const])
    if (v.decimalPlaces() > row.digits)
      throw fieldError(field, `${label} must have at most ${row.digits} decimals (the digits of ${row.name})`);
  // Which source prices the category, as the saved Trade APIs settings decide (the same rule the leader's feed
  // manager follows), so every instance answers alike.
  const source = routeCategories(await readKeys(ctx.db))[row.category];
  if (source !== 'simulated')
    throw new AppError(
      'CONFLICT',
      `${row.name} is priced by ${PROVIDER_NAMES[source]}, not by the simulated feed: its price cannot be set.`,
    );

  const previous = ctx.market.book.get(row.name);
  const before = previous ? { bid: previous.bid.toFixed(row.digits), ask: previous.ask.toFixed(row.digits) } : null;
  const after = { bid: bid.toFixed(row.digits), ask: ask.toFixed(row.digits) };
  const marketOpen = ctx.market.isOpen(row.category);
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: null,
    action: 'simulator.price',
    before: before ? { instrument: row.name, ...before } : null,
    after: { instrument: row.name, ...after, marketOpen },
    ip: actor.ip,
    subjectType: 'instrument',
    subjectId: row.id,
  });

  const quote: Quote = {
    name: row.name,
    bid: bid.toNumber(),
    ask: ask.toNumber(),
    closeoutBid: bid.toNumber(),
    closeoutAsk: ask.toNumber(),
    time: Date.now(),
  };
  try {
    deliverSimulatedQuote(ctx, quote);
  } catch (err) {
    // The book holds the quote before its listeners run; a failing listener is logged as a feed tick's would be.
    log('a price listener failed on a set price', err);
  }
  // The leader applies it when this instance follows; with a closed market every instance holds it.
  ctx.cluster.bus.publish('simulator', quote);

  return {
    message: marketOpen
      ? `${row.name} quoted at ${after.bid} / ${after.ask}.`
      : `${row.name} set to ${after.bid} / ${after.ask}. Its market is closed: the price is held without a tick, and the feed walks on from it when the market opens.`,
    instrument: row.name,
    ...after,
    previous: before,
    marketOpen,
  };
}
