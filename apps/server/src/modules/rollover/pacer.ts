import type { OrderPathWatch } from '../trading/order-path-watch.ts';

/**
 * How many of the rollover's lanes walk at once. While clients trade, as few as will end the run within its target:
 * every lane is a backend of the database busy on the run, and on a server with few cores each one the run adds slows
 * the orders' own statements. With nobody trading, every lane.
 *
 * The pacer projects the run's end from its recent pace (the positions charged in the last seconds, at the lanes
 * walking now): past 90 % of the target it adds a lane, under 80 % it takes one away, never fewer than one. A change
 * is judged on its own pace before the next. Batches ask for their turn before each statement; a lane ranked beyond
 * those allowed waits (the first lane still walking never does, so the run always ends).
 */
export interface PacerOptions {
  lanes: number;
  /** The run's pause between batches, in ms. */
  pauseMs: number;
  /** Whether the lanes give way to clients' orders at all; false walks every lane throughout. */
  giveWay: boolean;
  /** The open positions the run expects to charge, and the time it should end within (ms). */
  expected: number;
  targetMs: number;
  now?: () => number;
}

/** Orders within this window mean clients are trading. */
const ORDERS_WINDOW_MS = 1_000;
/**
 * The pace is measured over this window, and never across a change younger than SETTLE_MS. The first judgement waits
 * for a whole window of batches from the first lane's start (making the lanes reads every open position first, a
 * second or so): a pace measured across that looked late, and a second lane walked for nothing in the first seconds
 * cost the order path more than it gave the run.
 */
const PACE_MS = 3_000;
const SETTLE_MS = 1_500;
/** How often a lane that has no turn looks again. */
const WAIT_STEP_MS = 50;

export interface PacerStats {
  /** Lanes taken away while on time, and added back because the run would have ended late. */
  stepsDown: number;
  lateSteps: number;
  /** Lanes added back because no client traded. */
  stepsUp: number;
  fewestLanes: number;
  /** The lanes allowed, averaged over the run's time. */
  meanLanes: number;
}

export class LanePacer {
  private active: number;
  private changedAt: number;
  private readonly startedAt: number;
  private done = 0;
  /** When each batch ended and what it charged, for the recent pace (a batch a few hundred ms: a few dozen kept). */
  private readonly batches: Array<{ at: number; n: number }> = [];
  private laneMs = 0;
  private lastTick: number;
  private readonly now: () => number;
  private readonly walking = new Set<number>();
  /** Lane changes so far. */
  private changes = 0;
  readonly stats: PacerStats;

  constructor(
    private readonly watch: OrderPathWatch,
    private readonly opts: PacerOptions,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.startedAt = this.now();
    this.changedAt = this.startedAt;
    this.lastTick = this.startedAt;
    // Clients trading when the run starts get the one lane from the first batch.
    this.active = opts.giveWay && this.trading() ? 1 : opts.lanes;
    this.stats = { stepsDown: 0, lateSteps: 0, stepsUp: 0, fewestLanes: this.active, meanLanes: this.active };
  }

  /** A batch charged `n` positions. */
  charged(n: number): void {
    this.done += n;
    const at = this.now();
    this.batches.push({ at, n });
    while (this.batches.length > 0 && this.batches[0].at < at - PACE_MS) this.batches.shift();
  }

  /** Lanes allowed now. */
  lanesNow(): number {
    return this.active;
  }

  /** A lane starts walking (lanes are ranked by their number among those still walking). */
  join(lane: number): void {
    // The pace is measured from the first batch on, not from the run's reads before it.
    if (this.done === 0 && this.changes === 0) this.changedAt = this.now();
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

  /** One lane more or fewer, when the pace since the last change says so. */
  decide(): void {
    const now = this.now();
    this.laneMs += this.active * (now - this.lastTick);
    this.lastTick = now;
    if (now > this.startedAt) this.stats.meanLanes = this.laneMs / (now - this.startedAt);
    const settle = this.changes === 0 ? PACE_MS : SETTLE_MS;
    if (!this.opts.giveWay || now - this.changedAt < settle) return;
    if (!this.trading()) {
      if (this.active < this.opts.lanes) this.set(this.opts.lanes, now, 'stepsUp');
      return;
    }
    const projected = this.projectedEnd(now);
    if (projected === null) return;
    if (projected > this.opts.targetMs * 0.9) {
      if (this.active < this.opts.lanes) this.set(this.active + 1, now, 'lateSteps');
    } else if (projected < this.opts.targetMs * 0.8 && this.active > 1) {
      this.set(this.active - 1, now, 'stepsDown');
    }
  }

  /** When the run will end at its pace since the last change (ms from its start); null before a pace is known. */
  private projectedEnd(now: number): number | null {
    if (this.opts.targetMs <= 0) return 0;
    const since = Math.max(this.changedAt, now - PACE_MS);
    const recent = this.batches.filter((b) => b.at > since).reduce((n, b) => n + b.n, 0);
    if (recent === 0) return null;
    const left = Math.max(0, this.opts.expected - this.done);
    return now - this.startedAt + (left * (now - since)) / recent;
  }

  private trading(): boolean {
    return this.watch.busy() > 0 || this.watch.answeredWithin(ORDERS_WINDOW_MS);
  }

  private set(lanes: number, now: number, step: 'stepsDown' | 'lateSteps' | 'stepsUp'): void {
    this.stats[step] += Math.abs(lanes - this.active);
    this.active = lanes;
    this.changedAt = now;
    this.changes++;
    this.stats.fewestLanes = Math.min(this.stats.fewestLanes, lanes);
  }

  private rankOf(lane: number): number {
    let rank = 0;
    for (const other of this.walking) if (other < lane) rank++;
    return rank;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
