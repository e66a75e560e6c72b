import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { pendingOrders } from '../../../db/schema.ts';
import { PendingBook } from '../../../engine/pending-book.ts';
import type { Quote } from '../../../market/price-book.ts';
import type { PendingHooks, PendingRow } from './hooks.ts';
import type { Trader } from '../trader.ts';
import { fillPendingBatch, notifyFilled, walletTraders, type BatchFill } from './fill-batch.ts';
import { entryOf, factsOf, type PendingFacts } from './pending-facts.ts';
import { triggerPending } from './trigger-pending.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk' | 'realtime' | 'cluster' | 'pending'>;

/** What an instance tells the others after a committed change (JSON over the cluster bus). */
type PeerMessage = { op: 'waiting'; facts: PendingFacts } | { op: 'gone'; id: number } | { op: 'reload' };

/** How often the leader looks for orders whose expiry passed. */
const EXPIRY_MS = 1000;
const EXPIRY_BATCH = 500;
/**
 * Fills of one tick go to the database in statements of at most this many orders (whole wallets each, so no two
 * statements of a burst wait for one another): large enough that a burst costs few round trips, small enough that
 * the first fills commit early and the pool's connections share the work.
 */
const FILL_CHUNK = Number(process.env.FILL_CHUNK ?? 500);
/** Statements of one burst at once: enough to keep the database's cores busy, few enough not to queue for locks. */
const FILL_STATEMENTS = Number(process.env.FILL_STATEMENTS ?? 4);

/**
 * The server side of pending orders: every waiting order in a book ordered by trigger price per instrument, fed by
 * every tick of the price book. Every instance keeps the same book (the use cases tell each other over the cluster
 * bus); only the leader triggers, fills and expires, each once under a conditional update, so a restart, a takeover
 * or two instances never fill an order twice. Triggering needs the client nowhere.
 */
export class PendingService implements PendingHooks {
  readonly book = new PendingBook();
  private readonly facts = new Map<number, PendingFacts>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private acting = true;
  private nextExpiry = Number.POSITIVE_INFINITY;
  private stopTicks: (() => void) | null = null;
  private unsubscribe = (): void => undefined;
  private expiryTimer: NodeJS.Timeout | null = null;
  private expiring = false;
  /** Changes applied while a reload read the database: newer than its read, so they win. */
  private journal: Map<number, PendingFacts | null> | null = null;
  private reloading: Promise<void> = Promise.resolve();
  /** Failures of triggers and expiry runs, for logs and tests; a trigger failure retries on a later tick. */
  onError: (err: unknown) => void = () => {};

  constructor(private readonly ctx: () => Ctx) {}

  async start(): Promise<void> {
    const { market, cluster } = this.ctx();
    await this.reload();
    this.unsubscribe = cluster.bus.subscribe('pending', (m) => this.onPeer(m as PeerMessage));
    this.stopTicks = market.book.onTicks((changed) => this.onTicks(changed));
    this.expiryTimer = setInterval(() => this.expireDue(), EXPIRY_MS);
    this.expiryTimer.unref();
    this.acting = cluster.leadership.isLeader;
    cluster.leadership.onChange((leader) => (leader ? this.takeOver() : this.standDown()));
    this.expireDue();
    // Orders already reached at start-up trigger on the current prices.
    this.onTicks(market.book.all());
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    this.stopTicks?.();
    this.stopTicks = null;
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** A new leader reloads (the old one may have committed changes it never announced) and acts on current prices. */
  async takeOver(): Promise<void> {
    this.ctx().cluster.bus.publish('pending', { op: 'reload' } satisfies PeerMessage);
    await this.reload();
    this.acting = true;
    this.expireDue();
    this.onTicks(this.ctx().market.book.all());
  }

  standDown(): void {
    this.acting = false;
  }

  /** Waiting orders the service holds (diagnostics and tests). */
  waitingIds(): number[] {
    return [...this.facts.keys()];
  }

  // ---- hooks called by the use cases after each commit ---------------------------------------------------------

  waiting(row: PendingRow): void {
    if (row.status !== 'pending') return this.gone(row.id);
    const facts = factsOf(row);
    this.track(facts);
    this.ctx().cluster.bus.publish('pending', { op: 'waiting', facts } satisfies PeerMessage);
  }

  gone(id: number): void {
    this.forget(id);
    this.ctx().cluster.bus.publish('pending', { op: 'gone', id } satisfies PeerMessage);
  }

  private onPeer(m: PeerMessage): void {
    if (m.op === 'waiting') this.track(m.facts);
    else if (m.op === 'gone') this.forget(m.id);
    else void this.reload().catch((err: unknown) => this.onError(err));
  }

  private track(f: PendingFacts): void {
    this.journal?.set(f.id, f);
    this.facts.set(f.id, f);
    const e = entryOf(f);
    this.book.add(f.id, f.instrumentId, e.trigger, e.price);
    if (f.expiresAt !== null && f.expiresAt < this.nextExpiry) this.nextExpiry = f.expiresAt;
  }

  private forget(id: number): void {
    this.journal?.set(id, null);
    this.facts.delete(id);
    this.book.remove(id);
  }

  // ---- loading ------------------------------------------------------------------------------------------------

  private reload(): Promise<void> {
    const next = this.reloading.then(() => this.load());
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    const journal = new Map<number, PendingFacts | null>();
    this.journal = journal;
    let rows: PendingRow[];
    try {
      rows = await this.ctx().db.select().from(pendingOrders).where(eq(pendingOrders.status, 'pending'));
    } finally {
      this.journal = null;
    }
    this.book.clear();
    this.facts.clear();
    this.nextExpiry = Number.POSITIVE_INFINITY;
    for (const r of rows) if (!journal.has(r.id)) this.track(factsOf(r));
    for (const f of journal.values()) if (f) this.track(f);
  }

  // ---- triggering ---------------------------------------------------------------------------------------------

  private onTicks(changed: readonly Quote[]): void {
    if (!this.acting || this.book.size === 0) return;
    const { market } = this.ctx();
    const out: number[] = [];
    for (const q of changed) {
      const instrument = market.instruments.byNameOf(q.name);
      // A closed market triggers nothing: its orders wait for the first price after it opens (a gap fills stops there).
      if (!instrument || !market.isOpen(instrument.category)) continue;
      out.length = 0;
      this.book.tick(instrument.id, q.bid, q.ask, out);
      const quote = { bid: q.bid, ask: q.ask };
      const fills: PendingFacts[] = [];
      for (const id of out) {
        const f = this.facts.get(id);
        if (!f) continue;
        // A stop-limit's stop places its limit, one at a time; every other order reached fills in the batch.
        if (f.kind === 'stop_limit' && !f.activated) this.run(this.trigger(f, quote, instrument.digits));
        else fills.push(f);
      }
      if (fills.length) this.run(this.fillBurst(fills, quote, instrument.digits));
    }
  }

  /** Fills what one tick reached on one instrument: chunks of whole wallets, a few statements at a time. */
  private async fillBurst(fills: PendingFacts[], quote: { bid: number; ask: number }, digits: number): Promise<void> {
    let traders: Map<number, Trader>;
    try {
      traders = await walletTraders(this.ctx(), fills);
    } catch (err) {
      this.onError(err);
      for (const f of fills) this.run(this.trigger(f, quote, digits));
      return;
    }
    const chunks = chunksByWallet(fills, FILL_CHUNK);
    const filled: BatchFill[] = [];
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) filled.push(...(await this.fillMany(chunks[next++], quote, digits, traders)));
    };
    await Promise.all(Array.from({ length: Math.min(FILL_STATEMENTS, chunks.length) }, worker));
    // The stored notifications once every fill of the burst is in (the owners were told of each fill at once).
    this.run(notifyFilled(this.ctx(), filled));
  }

  /** Fills a chunk in one statement; whatever it leaves (or all of it, when it fails) goes the one-order way. */
  private async fillMany(
    chunk: PendingFacts[],
    quote: { bid: number; ask: number },
    digits: number,
    traders: ReadonlyMap<number, Trader>,
  ): Promise<readonly BatchFill[]> {
    let rest: readonly PendingFacts[] = chunk;
    let filled: readonly BatchFill[] = [];
    try {
      const outcome = await fillPendingBatch(this.ctx(), chunk, quote, digits, traders);
      for (const { facts, ocoCancelledId } of outcome.filled) this.settleFilled(facts, ocoCancelledId);
      rest = outcome.rest;
      filled = outcome.filled;
    } catch (err) {
      this.onError(err);
    }
    for (const f of rest) this.run(this.trigger(f, quote, digits));
    return filled;
  }

  /** After a fill committed: the order and its cancelled OCO partner leave every book, and the owner is told. */
  private settleFilled(f: PendingFacts, ocoCancelledId: number | null): void {
    const { realtime } = this.ctx();
    this.gone(f.id);
    realtime.toUser(f.userId, 'pendingOrdersChanged', {
      balanceId: f.walletId,
      pendingOrderId: f.id,
      status: 'filled',
    });
    if (ocoCancelledId !== null) {
      this.gone(ocoCancelledId);
      realtime.toUser(f.userId, 'pendingOrdersChanged', {
        balanceId: f.walletId,
        pendingOrderId: ocoCancelledId,
        status: 'cancelled',
      });
    }
  }

  private async trigger(f: PendingFacts, quote: { bid: number; ask: number }, digits: number): Promise<void> {
    const outcome = await triggerPending(this.ctx(), f, quote, digits);
    const { realtime } = this.ctx();
    const tell = (id: number, status: string) =>
      realtime.toUser(f.userId, 'pendingOrdersChanged', { balanceId: f.walletId, pendingOrderId: id, status });
    switch (outcome.kind) {
      case 'filled':
        this.settleFilled(f, outcome.ocoCancelledId);
        return;
      case 'activated': {
        this.waiting(outcome.row);
        tell(f.id, 'pending');
        const facts = this.facts.get(f.id);
        if (outcome.fillNow && facts) {
          this.book.remove(f.id);
          await this.trigger(facts, quote, digits);
        }
        return;
      }
      case 'cancelled':
        this.gone(f.id);
        tell(f.id, 'cancelled');
        return;
      case 'changed':
        if (outcome.row) this.waiting(outcome.row);
        else this.gone(f.id);
        return;
      case 'retry':
        this.onError(outcome.error);
        // Waits again unless something else happened to it meanwhile; the next tick that reaches it retries.
        if (this.facts.get(f.id) === f) {
          const e = entryOf(f);
          this.book.add(f.id, f.instrumentId, e.trigger, e.price);
        }
        return;
    }
  }

  // ---- expiry -------------------------------------------------------------------------------------------------

  /** Expires every waiting order whose time passed, once, in batches; runs on the leader only. */
  private expireDue(): void {
    if (!this.acting || this.expiring || Date.now() < this.nextExpiry) return;
    this.expiring = true;
    this.run(
      this.expireBatch()
        .catch((err: unknown) => this.onError(err))
        .finally(() => {
          this.expiring = false;
        }),
    );
  }

  private async expireBatch(): Promise<void> {
    const { db, realtime } = this.ctx();
    for (;;) {
      const due = db
        .select({ id: pendingOrders.id })
        .from(pendingOrders)
        .where(and(eq(pendingOrders.status, 'pending'), lte(pendingOrders.expiresAt, sql`now()`)))
        .orderBy(asc(pendingOrders.expiresAt))
        .limit(EXPIRY_BATCH);
      const rows = await db
        .update(pendingOrders)
        .set({ status: 'expired', reason: 'Expired', closedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(inArray(pendingOrders.id, due), eq(pendingOrders.status, 'pending')))
        .returning({ id: pendingOrders.id, userId: pendingOrders.userId, balanceId: pendingOrders.balanceId });
      for (const r of rows) {
        this.gone(r.id);
        realtime.toUser(r.userId, 'pendingOrdersChanged', {
          balanceId: r.balanceId,
          pendingOrderId: r.id,
          status: 'expired',
        });
      }
      if (rows.length < EXPIRY_BATCH) break;
    }
    let next = Number.POSITIVE_INFINITY;
    for (const f of this.facts.values()) if (f.expiresAt !== null && f.expiresAt < next) next = f.expiresAt;
    this.nextExpiry = next;
  }

  private run(p: Promise<unknown>): void {
    const tracked = p.catch((err: unknown) => this.onError(err));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

/** Splits fills into chunks of about `size` orders, each holding every order of its wallets. */
export function chunksByWallet(fills: PendingFacts[], size: number): PendingFacts[][] {
  if (fills.length === 0) return [];
  const sorted = [...fills].sort((a, b) => a.walletId - b.walletId || a.id - b.id);
  const chunks: PendingFacts[][] = [];
  let chunk: PendingFacts[] = [];
  for (const f of sorted) {
    if (chunk.length >= size && chunk[chunk.length - 1].walletId !== f.walletId) {
      chunks.push(chunk);
      chunk = [];
    }
    chunk.push(f);
  }
  chunks.push(chunk);
  return chunks;
}
