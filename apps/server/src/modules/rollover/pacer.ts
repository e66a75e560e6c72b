import { type OrderPathWatch, quantileOf } from '../trading/order-path-watch.ts';

/**
 * How the rollover's lanes give way to the order path. Before each batch a lane asks for its turn: while the orders
 * of this instance answer within the budget of the time they took before the run, every lane goes on, with the run's
 * pause between batches; when their 90th percentile passes it, lanes stop one by one (the last lane never stops), and
 * with one lane left the pause doubles up to a limit. Once orders are fast again the pause halves back and lanes
 * return. Decisions wait for answers given after the last change, so one change is judged before the next.
 */
export interface PacerOptions {
  lanes: number;
  /** The run's pause between batches, in ms: the floor of the pause. */
  pauseMs: number;
  /** How many ms above its usual 90th percentile the order path may go before the run gives way; 0 never. */
  budgetMs: number;
  now?: () => number;
}

/** Orders before the run that set the usual figure, and the least answers a decision needs. */
const BASELINE_MS = 30_000;
const WINDOW_MS = 1_000;
const MIN_ANSWERS = 5;
const MAX_PAUSE_MS = 250;
/** How often a lane that has no turn looks again. */
const WAIT_STEP_MS = 50;

export interface PacerStats {
  /** The usual 90th percentile before the run, in ms (null without orders then). */
  baselineMs: number | null;
  stepsDown: number;
  stepsUp: number;
  /** Fewest lanes at once, and the longest pause used. */
  fewestLanes: number;
  longestPauseMs: number;
}

export class LanePacer {
  private active: number;
  private pause: number;
  private changedAt: number;
  private readonly baseline: number | null;
  private readonly now: () => number;
  private readonly walking = new Set<number>();
  readonly stats: PacerStats;

  constructor(
    private readonly watch: OrderPathWatch,
    private readonly opts: PacerOptions,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.active = opts.lanes;
    this.pause = opts.pauseMs;
    this.changedAt = this.now();
    const before = watch.recent(BASELINE_MS);
    this.baseline = before.length >= MIN_ANSWERS ? quantileOf(before, 0.9) : null;
    this.stats = {
      baselineMs: this.baseline,
      stepsDown: 0,
      stepsUp: 0,
      fewestLanes: opts.lanes,
      longestPauseMs: opts.pauseMs,
    };
  }

  /** Lanes allowed now. */
  lanesNow(): number {
    return this.active;
  }

  /** A lane starts walking (lanes are ranked by their number among those still walking). */
  join(lane: number): void {
    this.walking.add(lane);
  }

  /** A lane reached its end (or stopped): the lanes after it move up a rank. */
  leave(lane: number): void {
    this.walking.delete(lane);
  }

  /**
   * The pause before a lane's next batch; a lane ranked beyond those allowed waits here until its turn comes back.
   * The first lane still walking always goes on, so the run always ends.
   */
  async turn(lane: number): Promise<void> {
    for (;;) {
      this.decide();
      if (this.rankOf(lane) < this.active) break;
      await sleep(WAIT_STEP_MS);
    }
    if (this.pause > 0) await sleep(this.pause);
    else await new Promise((r) => setImmediate(r));
  }

  /** One step down or up when the answers since the last change say so. */
  decide(): void {
    if (this.opts.budgetMs <= 0) return;
    const now = this.now();
    const answers = this.watch.recent(Math.min(WINDOW_MS, now - this.changedAt));
    if (answers.length < MIN_ANSWERS) {
      // No orders to protect for a whole window: back to full speed, a step at a time.
      if (now - this.changedAt >= WINDOW_MS && this.watch.busy() === 0) this.stepUp(now);
      return;
    }
    // Without a figure from before the run, the fastest answer now stands for an order that waited for nothing.
    const usual = this.baseline ?? answers[0];
    const p90 = quantileOf(answers, 0.9) ?? 0;
    if (p90 > usual + this.opts.budgetMs) this.stepDown(now);
    else if (p90 <= usual + this.opts.budgetMs / 2 && now - this.changedAt >= WINDOW_MS) this.stepUp(now);
  }

  private rankOf(lane: number): number {
    let rank = 0;
    for (const other of this.walking) if (other < lane) rank++;
    return rank;
  }

  private stepDown(now: number): void {
    if (this.active > 1) this.active--;
    else if (this.pause < MAX_PAUSE_MS) this.pause = Math.min(MAX_PAUSE_MS, Math.max(10, this.pause * 2));
    else return;
    this.changedAt = now;
    this.stats.stepsDown++;
    this.stats.fewestLanes = Math.min(this.stats.fewestLanes, this.active);
    this.stats.longestPauseMs = Math.max(this.stats.longestPauseMs, this.pause);
  }

  private stepUp(now: number): void {
    if (this.pause > this.opts.pauseMs) this.pause = Math.max(this.opts.pauseMs, Math.floor(this.pause / 2));
    else if (this.active < this.opts.lanes) this.active++;
    else return;
    this.changedAt = now;
    this.stats.stepsUp++;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
