import type { Side } from '@platform/domain';
import type { AppContext } from '../context.ts';
import { moveTrailingStop, trailingOf } from '../modules/trading/trail-stop.ts';
import type { OrderRow } from './hooks.ts';
import type { RiskEngine } from './risk-engine.ts';
import { trailingTrigger } from './trailing-book.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'realtime' | 'risk'>;

/** A trailing stop as stored: what its trigger is computed from (exact decimals). */
interface TrailFacts {
  side: Side;
  instrument: number;
  stopLoss: string | null;
  distance: string;
  step: string;
}

/** The columns of a position that say how its stop trails. */
export type TrailingColumns = Pick<
  OrderRow,
  'id' | 'type' | 'instrumentId' | 'stopLoss' | 'trailingDistance' | 'trailingStep'
>;

/**
 * The risk service's trailing stops: every instance keeps each tracked position's trailing figures and its place in
 * the engine's trailing book (so a new leader starts at once); only the leader moves them. A tick pops the stops it
 * reaches; each move is stored by the trade module's use case (a conditional update), which tells every engine the
 * new stop-loss; the stop then goes back into the book with its new trigger, and is looked at again against the last
 * quote in case the price ran on meanwhile. One move per position at a time.
 */
export class TrailingStops {
  private readonly facts = new Map<number, TrailFacts>();
  /** Positions whose move is being stored: out of the book until it lands. */
  private readonly moving = new Set<number>();
  /** Failures of moves, for logs and tests; the stop is tried again on its next tick. */
  onError: (err: unknown, orderId: number) => void = () => {};
  /** Whether this instance acts on the engine's verdicts; set by the risk service. */
  acting: () => boolean = () => true;

  constructor(
    private readonly engine: RiskEngine,
    private readonly ctx: () => Ctx,
    private readonly track: (work: Promise<unknown>) => void,
  ) {}

  get size(): number {
    return this.facts.size;
  }

  /** A tracked position's stop-loss or trailing figures as stored now (its open, a modify, a move, a reload). */
  follow(order: TrailingColumns): void {
    if (order.trailingDistance === null) {
      this.facts.delete(order.id);
      this.engine.setTrailing(order.id, null);
      return;
    }
    this.facts.set(order.id, {
      side: order.type as Side,
      instrument: order.instrumentId,
      stopLoss: order.stopLoss,
      distance: order.trailingDistance,
      step: order.trailingStep ?? '0',
    });
    if (!this.moving.has(order.id)) this.putBack(order.id);
  }

  /** The position is closed or no longer tracked. */
  forget(orderId: number): void {
    this.facts.delete(orderId);
  }

  /** The leader's part of a tick: moves the stops this quote reaches. */
  tick(instrument: number, bid: number, ask: number): void {
    if (this.facts.size === 0) return;
    const due = this.engine.trail(instrument, bid, ask);
    if (due.length === 0) return;
    const row = this.ctx().market.instruments.byIdOf(instrument);
    if (!row) return;
    const quote = { bid: bid.toFixed(row.digits), ask: ask.toFixed(row.digits) };
    for (const orderId of due) this.move(orderId, instrument, quote);
  }

  private move(orderId: number, instrument: number, quote: { bid: string; ask: string }): void {
    this.moving.add(orderId);
    const work = (async () => {
      try {
        const moved = await moveTrailingStop(this.ctx(), orderId, quote);
        if (moved) return;
        // Nothing moved: the row changed since this instance last heard (a modify or a close elsewhere).
        const row = await trailingOf(this.ctx(), orderId);
        if (row && row.trailingDistance !== null) this.follow(row);
        else this.forget(orderId);
      } catch (err) {
        this.onError(err, orderId);
      } finally {
        this.moving.delete(orderId);
        this.putBack(orderId);
      }
      // The price may have run on while the move was stored.
      const last = this.lastQuote(instrument);
      if (last && this.acting()) this.tick(instrument, last.bid, last.ask);
    })();
    this.track(work);
  }

  /** The instrument's last quote while its market is open (a closed market moves nothing). */
  private lastQuote(instrument: number): { bid: number; ask: number } | undefined {
    const { market } = this.ctx();
    const row = market.instruments.byIdOf(instrument);
    return row && market.isOpen(row.category) ? market.book.get(row.name) : undefined;
  }

  private putBack(orderId: number): void {
    const f = this.facts.get(orderId);
    if (!f) return;
    // A position the engine no longer tracks (closed meanwhile) keeps no trailing figures either.
    if (!this.engine.setTrailing(orderId, trailingTrigger(f.side, f.stopLoss, f.distance, f.step)))
      this.facts.delete(orderId);
  }
}
