import { type OrderPathWatch, quantileOf } from '../trading/order-path-watch.ts';

/**
 * How the rollover's lanes give way to the order path. Before each batch a lane asks for its turn: while the orders
 * of this instance answer within the budget of the time they took before the run, every lane goes on; when their
 * 90th percentile passes it, lanes stop one at a time down to one (the first lane still walking never stops, so the
 * run goes on at least at one lane's pace and always ends). Once orders are fast again the lanes return, one at a
 * time. Decisions wait for answers given after the last change, so one change is judged before the next.
 *
 * Giving way has a limit: the run's target time. From the positions charged so far the pacer projects when the run
 * will end; while that is past 90 % of the target every lane goes on whatever the orders do, and lanes stop again
 * only once it is back under 80 %. A day's rollover thus ends in time, and gives the order path whatever it can spare.
 */
export interface PacerOptions {
  lanes: number;
  /** The run's pause between batches, in ms. */
  pauseMs: number;
  /** How many ms above its usual 90th percentile the order path may go before the run gives way; 0 never. */
  budgetMs: number;
  /** The open positions the run expects to charge, and the time it should end within (ms); 0 for no target. */
  expected?: number;
  targetMs?: number;
  now?: () => number;
}

/** Orders before the run that set the usual figure, and the least answers a decision needs. */
const BASELINE_MS = 30_000;
const WINDOW_MS = 1_000;
const MIN_ANSWERS = 5;
/** How often a lane that has no turn looks again. */
const WAIT_STEP_MS = 50;

export interface PacerStats {
  /** The usual 90th percentile before the run, in ms (null without orders then). */
  baselineMs: number | null;
  stepsDown: number;
  stepsUp: number;
  /** Fewest lanes at once. */
  fewestLanes: number;
  /** Decisions for every lane because the run would have ended late. */
  lateSteps: number;
}

export class LanePacer {
  private active: number;
  private changedAt: number;
  private readonly startedAt: number;
  private done = 0;
  private late = false;
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
    this.changedAt = this.now();
    this.startedAt = this.changedAt;
    const before = watch.recent(BASELINE_MS);
    this.baseline = before.length >= MIN_ANSWERS ? quantileOf(before, 0.9) : null;
    this.stats = {
      baselineMs: this.baseline,
      stepsDown: 0,
      stepsUp: 0,
      fewestLanes: opts.lanes,
      lateSteps: 0,
    };
  }

  /** A batch charged `n` positions: the run's progress towards its target. */
  charged(n: number): void {
    this.done += n;
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
    if (this.opts.pauseMs > 0) await sleep(this.opts.pauseMs);
    else await new Promise((r) => setImmediate(r));
  }

  /** One step down or up when the answers since the last change say so. */
  decide(): void {
    if (this.opts.budgetMs <= 0) return;
    const now = this.now();
    if (this.behind(now)) {
      if (this.active < this.opts.lanes) {
        this.active = this.opts.lanes;
        this.changedAt = now;
        this.stats.lateSteps++;
      }
      return;
    }
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

  /** Whether the run, at its pace so far, would end past its target (with hysteresis: 90 % to be late, 80 % to stop). */
  private behind(now: number): boolean {
    const { expected = 0, targetMs = 0 } = this.opts;
    if (expected <= 0 || targetMs <= 0) return false;
    const elapsed = now - this.startedAt;
    // Until a few batches are in, the pace is not known; the first second runs as if on time.
    if (this.done === 0 || elapsed < 1_000) return false;
    const projected = elapsed + (Math.max(0, expected - this.done) * elapsed) / this.done;
    this.late = projected > targetMs * (this.late ? 0.8 : 0.9);
    return this.late;
  }

  private rankOf(lane: number): number {
    let rank = 0;
    for (const other of this.walking) if (other < lane) rank++;
    return rank;
  }

  private stepDown(now: number): void {
    if (this.active <= 1) return;
    this.active--;
    this.changedAt = now;
    this.stats.stepsDown++;
    this.stats.fewestLanes = Math.min(this.stats.fewestLanes, this.active);
  }

  private stepUp(now: number): void {
    if (this.active >= this.opts.lanes) return;
    this.active++;
    this.changedAt = now;
    this.stats.stepsUp++;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
