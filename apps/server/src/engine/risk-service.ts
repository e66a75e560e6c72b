import type { Side } from '@platform/domain';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { countPositions } from '../lib/metrics.ts';
import type { Quote } from '../market/price-book.ts';
import { closeOrder } from '../modules/trading/close-order.ts';
import type { OrderRow, RiskHooks, WalletRef } from './hooks.ts';
import { ConversionSlots } from './conversion-slots.ts';
import { compareWithDatabase, readOpenPositions, type OpenPositionRow, type RiskCheck } from './risk-check.ts';
import { EquitySnapshots } from './equity-snapshots.ts';
import {
  ExposureIndex,
  scanExposure,
  siteRateOf,
  type ClientSums,
  type ExposureFilter,
  type InstrumentSums,
} from './exposure.ts';
import { RiskEngine, type RiskAction, type RiskWalletState } from './risk-engine.ts';
import { RiskNotices } from './risk-notices.ts';
import { TrailingStops } from './risk-trailing.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'realtime' | 'risk' | 'cluster' | 'jobs'>;

/** A position's levels as stored: take-profit, stop-loss and trailing stop (exact decimals). */
type Levels = Pick<
  OrderRow,
  'id' | 'type' | 'instrumentId' | 'takeProfit' | 'stopLoss' | 'trailingDistance' | 'trailingStep'
>;
/** A position's figures after a partial close. */
type Size = { orderId: number; amount: string; spread: string; margin: string };

/** What an instance's order service tells the risk engines of the other instances (JSON over the cluster bus). */
type PeerMessage =
  | { op: 'opened'; order: OrderRow; wallet: WalletRef }
  | { op: 'openedMany'; positions: Array<{ order: OrderRow; wallet: WalletRef }> }
  | { op: 'closed'; orderId: number; wallet: { id: number; balance: string } }
  | { op: 'levels'; levels: Levels }
  | { op: 'resized'; size: Size; wallet: { id: number; balance: string } }
  | { op: 'balance'; walletId: number; balance: string }
  | { op: 'balances'; changes: Array<{ walletId: number; balance: string }> }
  /** A new leader took over: what the old one committed and never announced is in the database only. */
  | { op: 'reload' };

/** Changes the order path applied while a reload read the database (RiskService.load). */
interface Journal {
  opened: Set<number>;
  closed: Set<number>;
  levels: Set<number>;
  /** Each wallet's latest balance as told. */
  balances: Map<number, string>;
}

/** How often every position is recomputed from scratch (picks up conversion-rate moves, removes float drift). */
const SWEEP_MS = 5000;
/** How many closed positions are remembered against late messages (ids only; far more than a second's closes). */
const CLOSED_REMEMBERED = 100_000;
const num = (v: string | null): number | null => (v === null ? null : Number(v));

/**
 * The server side of automatic closing: keeps the risk engine in step with committed orders, feeds it every tick of
 * the price book, and closes what it reports (take-profit, stop-loss, stop-out worst-first until the wallet is
 * safe) through the same transaction as a manual close, with the reason recorded and the client notified —
 * whether or not the client is connected.
 */
export class RiskService implements RiskHooks {
  readonly engine = new RiskEngine();
  private readonly conversions = new ConversionSlots(this.engine, () => {
    const { market } = this.ctx();
    return (quote, wallet) => market.conversionRate(quote, wallet);
  });
  private readonly walletCurrency = new Map<number, string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopTicks: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private uncount = (): void => undefined;
  private unsubscribe = (): void => undefined;
  /** Whether this instance closes positions (the sole instance, or the leader of several). */
  private acting = true;
  /**
   * What the order path changed while a reload was reading the database (positions opened, closed or given new
   * levels, wallets' latest balances): those changes are newer than the read, so the reload keeps them.
   */
  private journal: Journal | null = null;
  /** Reloads run one after another. */
  private reloading: Promise<void> = Promise.resolve();
  /** Failures of automatic closes, for logs and tests; the position is retried on its next tick. */
  onError: (err: unknown, action: RiskAction) => void = () => {};
  /** Trailing stops: kept by every instance, moved by the leader (risk-trailing.ts). */
  readonly trailing: TrailingStops;
  /** Margin calls and stop-out reports (risk-notices.ts). */
  private readonly notices: RiskNotices;
  /** The leader's floating P/L in the database, for the lists' equity sort (equity-snapshots.ts); off the tick path. */
  readonly snapshots: EquitySnapshots;
  /** Owners and modes of the tracked wallets and the clients' net per instrument (engine/exposure.ts). */
  readonly exposureIndex = new ExposureIndex();

  constructor(private readonly ctx: () => Ctx) {
    const track = (work: Promise<unknown>) => {
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    };
    this.trailing = new TrailingStops(this.engine, ctx, track);
    this.trailing.acting = () => this.acting;
    this.notices = new RiskNotices(this.engine, ctx, track);
    this.snapshots = new EquitySnapshots(this.engine, ctx);
  }

  /**
   * Loads every open position and its wallet, then follows the price book. With several instances every one keeps
   * the same picture (the order services tell each other through the cluster bus), so each answers the live P/L of
   * the free-margin check; only the leader closes positions.
   */
  async start(): Promise<void> {
    const { market, cluster } = this.ctx();
    await this.reload();
    this.uncount = countPositions(() => this.engine.size);
    this.unsubscribe = cluster.bus.subscribe('risk', (m) => this.onPeer(m as PeerMessage));
    this.stopTicks = market.book.onTicks((changed) => this.onTicks(changed));
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
    this.snapshots.start();
    this.acting = cluster.leadership.isLeader;
    cluster.leadership.onChange((leader) => (leader ? this.takeOver() : this.standDown()));
    // Positions already beyond their levels at start-up close on the first pass.
    this.sweep();
  }

  /**
   * This instance now leads: before acting on anything it reloads the open positions from the database (a message
   * from the old leader may have been lost with it) and re-evaluates every one against current prices, so a level
   * crossed while nobody led closes now, once.
   */
  async takeOver(): Promise<void> {
    // Every instance reloads: a change the dead leader committed but never announced is missing from all of them.
    this.ctx().cluster.bus.publish('risk', { op: 'reload' } satisfies PeerMessage);
    await this.reload();
    this.acting = true;
    this.sweep();
  }

  standDown(): void {
    this.acting = false;
  }

  /**
   * Makes the engine's positions exactly the open orders in the database, with their current levels and wallets.
   * Orders keep opening and closing meanwhile (here and on other instances), so the read is a snapshot and the
   * changes applied during it win: a position closed during the read is not tracked again, one opened during it is
   * not dropped, and a wallet keeps the balance it was last told.
   */
  private reload(): Promise<void> {
    const next = this.reloading.then(() => this.load());
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    const { db } = this.ctx();
    const journal: Journal = { opened: new Set(), closed: new Set(), levels: new Set(), balances: new Map() };
    this.journal = journal;
    let rows: OpenPositionRow[];
    try {
      rows = await readOpenPositions(db);
    } finally {
      this.journal = null;
    }
    const open = new Set(rows.map((r) => r.order.id));
    for (const id of [...this.orderInstrument.keys()]) if (!open.has(id) && !journal.opened.has(id)) this.forget(id);
    for (const r of rows) {
      if (journal.closed.has(r.order.id)) continue;
      const balance = journal.balances.get(r.order.balanceId) ?? r.balance;
      const marginCall = r.callLevel ? { level: r.callLevel, rearm: r.callRearm ?? 0 } : null;
      const wallet = { id: r.order.balanceId, balance, currency: r.currency, stopoutPercent: r.stopout, marginCall };
      // Fired or armed as the database last recorded it: a call made before a restart or a takeover is not made again.
      const armed = r.calledAt === null;
      if (this.orderInstrument.has(r.order.id)) {
        this.engine.upsertWallet(wallet.id, {
          balance: Number(wallet.balance),
          stopoutPercent: wallet.stopoutPercent,
          marginCall,
        });
        this.engine.wallets.setArmed(wallet.id, armed);
        // Changed during the read (levels, trailing stop, a partial close): what it was told is newer.
        if (journal.levels.has(r.order.id)) continue;
        // Already beyond its level: left for the sweep that follows a reload, which acts on it or not.
        if (this.engine.setLevels(r.order.id, num(r.order.takeProfit), num(r.order.stopLoss)))
          this.engine.releaseClosing(r.order.id);
        this.trailing.follow(r.order);
        const { tradeAmount, spread, marginUsed } = r.order;
        this.engine.resizePosition(r.order.id, {
          amount: Number(tradeAmount),
          spread: Number(spread),
          margin: Number(marginUsed),
        });
        this.exposureIndex.resized(r.order.id, Number(tradeAmount));
      } else {
        this.track(r.order, wallet);
        this.engine.wallets.setArmed(wallet.id, armed);
      }
    }
  }

  /** The engine against the database, for operators and tests (risk-check.ts). */
  async check(): Promise<RiskCheck> {
    const rows = await readOpenPositions(this.ctx().db);
    return compareWithDatabase(this.engine, rows, {
      leader: this.acting,
      tracked: [...this.orderInstrument.keys()],
      wallets: this.walletCurrency.keys(),
    });
  }

  async stop(): Promise<void> {
    this.uncount();
    this.unsubscribe();
    this.stopTicks?.();
    this.stopTicks = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.snapshots.stop();
    await this.idle();
  }

  /** Resolves when every automatic close started so far has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  // ---- hooks called by the order service after each commit ---------------------------------------------------------

  opened(order: OrderRow, wallet: WalletRef): void {
    this.applyOpened([{ order, wallet }]);
    this.ctx().cluster.bus.publish('risk', { op: 'opened', order, wallet } satisfies PeerMessage);
  }

  openedMany(positions: ReadonlyArray<{ order: OrderRow; wallet: WalletRef }>): void {
    if (positions.length === 0) return;
    this.applyOpened(positions);
    this.ctx().cluster.bus.publish('risk', { op: 'openedMany', positions: [...positions] } satisfies PeerMessage);
  }

  closed(order: OrderRow, wallet: Pick<WalletRef, 'id' | 'balance'>): void {
    this.applyClosed(order.id, wallet);
    this.ctx().cluster.bus.publish('risk', { op: 'closed', orderId: order.id, wallet } satisfies PeerMessage);
  }

  resized(order: OrderRow, wallet: Pick<WalletRef, 'id' | 'balance'>): void {
    const size = { orderId: order.id, amount: order.tradeAmount, spread: order.spread, margin: order.marginUsed };
    this.applyResized(size, wallet);
    this.ctx().cluster.bus.publish('risk', { op: 'resized', size, wallet } satisfies PeerMessage);
  }

  levelsChanged(order: OrderRow): void {
    const levels: Levels = {
      id: order.id,
      type: order.type,
      instrumentId: order.instrumentId,
      takeProfit: order.takeProfit,
      stopLoss: order.stopLoss,
      trailingDistance: order.trailingDistance,
      trailingStep: order.trailingStep,
    };
    this.applyLevels(levels);
    this.ctx().cluster.bus.publish('risk', { op: 'levels', levels } satisfies PeerMessage);
  }

  balanceChanged(walletId: number, balance: string): void {
    this.applyBalance(walletId, balance);
    this.ctx().cluster.bus.publish('risk', { op: 'balance', walletId, balance } satisfies PeerMessage);
  }

  balancesChanged(changes: ReadonlyArray<{ walletId: number; balance: string }>): void {
    if (changes.length === 0) return;
    for (const c of changes) this.applyBalance(c.walletId, c.balance);
    this.ctx().cluster.bus.publish('risk', { op: 'balances', changes: [...changes] } satisfies PeerMessage);
  }

  /** A change committed on another instance. */
  private onPeer(m: PeerMessage): void {
    if (m.op === 'opened') this.applyOpened([m]);
    else if (m.op === 'openedMany') this.applyOpened(m.positions);
    else if (m.op === 'closed') this.applyClosed(m.orderId, m.wallet);
    else if (m.op === 'levels') this.applyLevels(m.levels);
    else if (m.op === 'resized') this.applyResized(m.size, m.wallet);
    else if (m.op === 'balance') this.applyBalance(m.walletId, m.balance);
    else if (m.op === 'balances') for (const c of m.changes) this.applyBalance(c.walletId, c.balance);
    else if (m.op === 'reload')
      this.reload().catch((err: unknown) => console.error('risk engine: reloading after a takeover failed', err));
  }

  private applyOpened(positions: ReadonlyArray<{ order: OrderRow; wallet: WalletRef }>): void {
    const instruments = new Map<number, string>();
    for (const { order, wallet } of positions) {
      // Already loaded by a reload that read it committed, or already closed: the close was told first (two
      // instances publish independently, so another's "opened" can arrive after a "closed").
      if (this.orderInstrument.has(order.id) || this.closedIds.has(order.id)) continue;
      this.journal?.opened.add(order.id);
      this.journal?.balances.set(wallet.id, wallet.balance);
      this.track(order, wallet);
      instruments.set(order.instrumentId, order.instrument);
    }
    // A position opened at a price already beyond its level (or into a wallet at stop-out) is handled at once: one
    // pass over each instrument's positions for all the positions opened on it together.
    for (const [id, name] of instruments) {
      const q = this.ctx().market.book.get(name);
      if (q) this.run(this.engine.tick(id, q.bid, q.ask));
    }
  }

  private applyClosed(orderId: number, wallet: Pick<WalletRef, 'id' | 'balance'>): void {
    this.journal?.closed.add(orderId);
    this.closedIds.add(orderId);
    if (this.closedIds.size > CLOSED_REMEMBERED) this.closedIds.delete(this.closedIds.values().next().value as number);
    this.journal?.balances.set(wallet.id, wallet.balance);
    this.forget(orderId);
    this.engine.setWalletBalance(wallet.id, Number(wallet.balance));
    const next = this.engine.checkWallet(wallet.id);
    if (next) this.run([next]);
  }

  private applyLevels(levels: Levels): void {
    this.journal?.levels.add(levels.id);
    const action = this.engine.setLevels(levels.id, num(levels.takeProfit), num(levels.stopLoss));
    this.trailing.follow(levels);
    if (action) this.run([action]);
  }

  private applyResized(size: Size, wallet: Pick<WalletRef, 'id' | 'balance'>): void {
    this.journal?.levels.add(size.orderId);
    this.journal?.balances.set(wallet.id, wallet.balance);
    this.engine.resizePosition(size.orderId, {
      amount: Number(size.amount),
      spread: Number(size.spread),
      margin: Number(size.margin),
    });
    this.exposureIndex.resized(size.orderId, Number(size.amount));
    this.engine.setWalletBalance(wallet.id, Number(wallet.balance));
    const next = this.engine.checkWallet(wallet.id);
    if (next) this.run([next]);
  }

  private applyBalance(walletId: number, balance: string): void {
    this.journal?.balances.set(walletId, balance);
    // Only wallets with open positions are tracked; a lower balance may cross the stop-out level at once.
    if (!this.engine.setWalletBalance(walletId, Number(balance))) return;
    const next = this.engine.checkWallet(walletId);
    if (next) this.run([next]);
  }

  private forget(orderId: number): void {
    this.engine.removePosition(orderId);
    this.exposureIndex.closed(orderId);
    this.orderInstrument.delete(orderId);
    this.trailing.forget(orderId);
  }

  unrealizedPl(walletId: number): number {
    return this.engine.walletState(walletId)?.pl ?? 0;
  }

  walletsAtRisk(): Array<RiskWalletState & { walletId: number; marginCall: boolean }> {
    return this.engine.wallets.byMarginLevel();
  }

  openPositions(walletId: number): number {
    return this.engine.walletState(walletId)?.positions ?? 0;
  }

  trackedPositions(): number {
    return this.engine.size;
  }

  positionPl(orderId: number): number | null {
    const pl = this.engine.positionPl(orderId);
    return pl === null || !Number.isFinite(pl) ? null : pl;
  }

  netVolume(instrumentId: number, mode: 'real' | 'demo'): number {
    return this.exposureIndex.netVolume(instrumentId, mode);
  }

  exposureVersion(): number {
    return this.exposureIndex.version;
  }

  onNetChange(fn: (instrumentId: number, mode: 'real' | 'demo', net: number) => void): () => void {
    return this.exposureIndex.onNetChange(fn);
  }

  exposure(
    filter: ExposureFilter,
    siteCurrency: string,
    withClients: boolean,
  ): { instruments: InstrumentSums[]; clients: ClientSums[] } {
    const rate = siteRateOf(this.ctx().market, this.conversions.walletCurrencies(), siteCurrency);
    return scanExposure(this.engine, this.exposureIndex, filter, rate, withClients);
  }

  // ---- internals -----------------------------------------------------------------------------------------------------

  private track(order: OrderRow, wallet: WalletRef): void {
    this.walletCurrency.set(wallet.id, wallet.currency);
    this.orderInstrument.set(order.id, order.instrumentId);
    this.engine.upsertWallet(wallet.id, {
      balance: Number(wallet.balance),
      stopoutPercent: wallet.stopoutPercent,
      marginCall: wallet.marginCall,
    });
    this.engine.addPosition({
      orderId: order.id,
      walletId: wallet.id,
      instrument: order.instrumentId,
      side: order.type as Side,
      openRate: Number(order.openRate),
      amount: Number(order.tradeAmount),
      spread: Number(order.spread),
      convSlot: this.conversions.slotOf(order.quoteSymbol, wallet.currency, Number(order.exchangeRate)),
      margin: Number(order.marginUsed),
      takeProfit: num(order.takeProfit),
      stopLoss: num(order.stopLoss),
    });
    this.trailing.follow(order);
    this.exposureIndex.opened(order);
  }

  private onTicks(changed: readonly Quote[]): void {
    if (this.engine.size === 0) return;
    if (this.conversions.size) this.conversions.refresh();
    const { instruments } = this.ctx().market;
    for (const q of changed) {
      const instrument = instruments.byNameOf(q.name);
      if (!instrument) continue;
      this.run(this.engine.tick(instrument.id, q.bid, q.ask));
      // Only the leader moves trailing stops; the others keep them in their books for a takeover.
      if (this.acting) this.trailing.tick(instrument.id, q.bid, q.ask);
    }
  }

  /** Recomputes every position and wallet now, as the periodic sweep does (operators and tests). */
  sweepNow(): void {
    this.sweep();
  }

  private sweep(): void {
    if (this.engine.size === 0) return;
    this.conversions.refresh();
    this.run(this.engine.sweep());
  }

  private readonly orderInstrument = new Map<number, number>();
  /** The latest positions told closed (oldest first), so a late "opened" of one is not tracked again. */
  private readonly closedIds = new Set<number>();
  private instrumentOf(orderId: number): number | undefined {
    return this.orderInstrument.get(orderId);
  }

  private run(actions: readonly RiskAction[]): void {
    // Every evaluation that may close may also have fired or re-armed a margin call.
    this.notices.drain(this.acting);
    // Another instance leads and closes; here the positions are only followed, so they are looked at again next tick.
    if (!this.acting) {
      for (const action of actions) this.engine.releaseClosing(action.orderId);
      return;
    }
    for (const action of actions) {
      const p = this.execute(action).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  private async execute(action: RiskAction): Promise<void> {
    const ctx = this.ctx();
    const instrument = ctx.market.instruments.byIdOf(this.instrumentOf(action.orderId) ?? -1);
    if (instrument && !ctx.market.isOpen(instrument.category)) {
      // No fills while the market is closed: the position is looked at again on the first tick after the open.
      this.engine.releaseClosing(action.orderId);
      return;
    }
    try {
      if (action.reason === 'stop_out') this.notices.stopOutStarts(action.walletId);
      const closed = await closeOrder(ctx, { orderId: action.orderId, reason: action.reason, price: action.price });
      if (action.reason === 'stop_out') await this.notices.stopOutClosed(action.walletId, closed);
    } catch (err) {
      if (err instanceof AppError && (err.code === 'ORDER_CLOSED' || err.code === 'ORDER_NOT_FOUND')) {
        // Closed meanwhile by its owner or staff: nothing left to track.
        this.forget(action.orderId);
        return;
      }
      this.engine.releaseClosing(action.orderId);
      this.onError(err, action);
    }
  }
}
