import { isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { priceAlerts } from '../../db/schema.ts';
import type { Quote } from '../../market/price-book.ts';
import { AlertBook, type AlertEntry } from './alert-book.ts';
import { fireAlerts, queueMissedAlertMail } from './fire.ts';
import type { AlertHooks, AlertRow } from './hooks.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'realtime' | 'cluster' | 'jobs'>;

/** An alert change committed on another instance (JSON over the cluster bus). */
type PeerMessage = { op: 'upsert'; alert: AlertEntry } | { op: 'remove'; alertIds: number[] };

export const entryOf = (r: AlertRow): AlertEntry => ({
  id: r.id,
  instrumentId: r.instrumentId,
  side: r.side as AlertEntry['side'],
  condition: r.condition as AlertEntry['condition'],
  price: Number(r.price),
});

const isEntry = (e: unknown): e is AlertEntry => {
  const a = e as Partial<AlertEntry> | null;
  return (
    !!a &&
    typeof a.id === 'number' &&
    typeof a.instrumentId === 'number' &&
    (a.side === 'bid' || a.side === 'ask') &&
    (a.condition === 'above' || a.condition === 'below') &&
    typeof a.price === 'number'
  );
};

/**
 * Fires price alerts on the server, whether or not their owners are connected. Every instance holds the active
 * alerts in an AlertBook (loaded at start, kept in step by the alerts service here and by the cluster bus from the
 * others) so a takeover starts from a full book; only the leader looks at ticks and fires. A fire is a conditional
 * update in the database (modules/alerts/fire.ts), so a stale book, a takeover or two instances never fire twice.
 */
export class AlertWatcher implements AlertHooks {
  private current = new AlertBook();
  /** Alerts taken out of the book by a tick and not yet settled in the database. */
  private readonly firing = new Map<number, AlertEntry>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Alerts changed while a reload read the database: the change is newer than the read and wins. */
  private journal: Set<number> | null = null;
  private reloading: Promise<void> = Promise.resolve();
  private acting = false;
  private stopped = false;
  private detach: Array<() => void> = [];
  /** Failed fires, for logs and tests; the alert goes back into the book and is tried again on its next tick. */
  onError: (err: unknown, alertIds: number[]) => void = (err, alertIds) =>
    console.error(`price alerts ${alertIds.join(', ')}: firing failed`, err);

  constructor(private readonly ctx: () => Ctx) {}

  /** The active alerts this instance holds. */
  get book(): AlertBook {
    return this.current;
  }

  async start(): Promise<void> {
    const { market, cluster } = this.ctx();
    await this.reload();
    this.detach.push(cluster.bus.subscribe('alerts', (m) => this.onPeer(m as PeerMessage)));
    this.detach.push(market.book.onTicks((changed) => this.onTicks(changed)));
    cluster.leadership.onChange((leader) =>
      leader
        ? this.takeOver().catch((err: unknown) => console.error('price alerts: taking over failed', err))
        : this.standDown(),
    );
    if (cluster.leadership.isLeader) await this.lead();
  }

  /** This instance now leads: alerts changed while nobody led are read again, and what the price meets fires now. */
  async takeOver(): Promise<void> {
    if (this.stopped) return;
    await this.reload();
    await this.lead();
  }

  standDown(): void {
    this.acting = false;
  }

  private async lead(): Promise<void> {
    this.acting = true;
    this.sweep();
    await queueMissedAlertMail(this.ctx()).catch((err: unknown) =>
      console.error('price alerts: queueing missed mail failed', err),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.acting = false;
    for (const d of this.detach.splice(0)) d();
    await this.idle();
  }

  /** Resolves when every fire started so far has settled. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  // ---- hooks called by the alerts service after each commit ---------------------------------------------------------

  changed(row: AlertRow): void {
    if (row.firedAt) return this.removed(row.id);
    const alert = entryOf(row);
    this.applyUpsert(alert);
    this.ctx().cluster.bus.publish('alerts', { op: 'upsert', alert } satisfies PeerMessage);
  }

  removed(alertId: number): void {
    this.applyRemove(alertId);
    this.ctx().cluster.bus.publish('alerts', { op: 'remove', alertIds: [alertId] } satisfies PeerMessage);
  }

  private onPeer(m: PeerMessage): void {
    if (m.op === 'upsert' && isEntry(m.alert)) this.applyUpsert(m.alert);
    else if (m.op === 'remove' && Array.isArray(m.alertIds))
      for (const id of m.alertIds) if (typeof id === 'number') this.applyRemove(id);
  }

  private applyUpsert(alert: AlertEntry): void {
    this.journal?.add(alert.id);
    this.firing.delete(alert.id);
    this.book.upsert(alert);
    // The price may have moved past the level between the service's check and now: fire it without waiting a tick.
    if (this.acting) this.check(alert.instrumentId);
  }

  private applyRemove(alertId: number): void {
    this.journal?.add(alertId);
    this.firing.delete(alertId);
    this.book.remove(alertId);
  }

  // ---- loading ----------------------------------------------------------------------------------------------------

  /** Makes the book the active alerts of the database; reloads run one after another. */
  private reload(): Promise<void> {
    const next = this.reloading.then(() => this.load());
    this.reloading = next.catch(() => undefined);
    return next;
  }

  /**
   * Reads the active alerts and builds a new book from them beside the current one (one instrument at a time, so
   * ticks keep flowing), then swaps. Every change told meanwhile is newer than the read and wins: the swap takes
   * those alerts as the current book holds them, and leaves out the ones firing.
   */
  private async load(): Promise<void> {
    const journal = new Set<number>();
    this.journal = journal;
    try {
      const rows = await this.ctx().db.select().from(priceAlerts).where(isNull(priceAlerts.firedAt));
      const next = new AlertBook();
      await next.loadInSteps(rows.map(entryOf), () => new Promise((resolve) => setImmediate(resolve)));
      for (const id of journal) {
        const e = this.current.get(id);
        if (e) next.upsert(e);
        else next.remove(id);
      }
      for (const id of this.firing.keys()) next.remove(id);
      this.current = next;
    } finally {
      this.journal = null;
    }
  }

  // ---- ticks --------------------------------------------------------------------------------------------------------

  private onTicks(changed: readonly Quote[]): void {
    if (!this.acting || this.book.size === 0) return;
    const { instruments } = this.ctx().market;
    for (const q of changed) {
      const instrument = instruments.byNameOf(q.name);
      if (instrument) this.fireCrossed(instrument.id, q);
    }
  }

  /** After a takeover: every instrument's alerts against its current price, once. */
  private sweep(): void {
    for (const id of this.book.instruments()) this.check(id);
  }

  private check(instrumentId: number): void {
    const { market } = this.ctx();
    const instrument = market.instruments.byIdOf(instrumentId);
    const q = instrument && market.book.get(instrument.name);
    if (q) this.fireCrossed(instrumentId, q);
  }

  private fireCrossed(instrumentId: number, q: Pick<Quote, 'bid' | 'ask'>): void {
    const { market } = this.ctx();
    const instrument = market.instruments.byIdOf(instrumentId);
    // A closed market's held price is no tick: its alerts wait for the first price after the open.
    if (!instrument || !market.isOpen(instrument.category)) return;
    const crossed = this.book.takeCrossed(instrumentId, q.bid, q.ask);
    if (crossed.length > 0) this.fire(crossed, q, instrument.digits);
  }

  /** One transaction for the alerts of an instrument one tick crossed. */
  private fire(alerts: AlertEntry[], q: Pick<Quote, 'bid' | 'ask'>, digits: number): void {
    for (const a of alerts) this.firing.set(a.id, a);
    // Each alert's own: true unless an edit or delete replaced it while it fired.
    const settled = (a: AlertEntry) => {
      const mine = this.firing.get(a.id) === a;
      if (mine) this.firing.delete(a.id);
      return mine;
    };
    const p = fireAlerts(this.ctx(), alerts, { bid: q.bid, ask: q.ask }, digits)
      .then((rows) => {
        for (const a of alerts) settled(a);
        // The others drop them from their books; an alert not fired is not active in that form in the database.
        if (rows.length > 0)
          this.ctx().cluster.bus.publish('alerts', {
            op: 'remove',
            alertIds: rows.map((r) => r.id),
          } satisfies PeerMessage);
      })
      .catch((err: unknown) => {
        // Back into the book, to be tried on the next tick, unless edited or deleted meanwhile.
        for (const a of alerts) if (settled(a) && !this.book.get(a.id) && !this.stopped) this.book.upsert(a);
        this.onError(
          err,
          alerts.map((a) => a.id),
        );
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }
}
