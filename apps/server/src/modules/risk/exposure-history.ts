import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { DeskMode } from '../../engine/exposure.ts';

type Ctx = Pick<AppContext, 'db' | 'risk'>;

/** How often the day's net exposure is sampled, and how many points a row's sparkline gets at most. */
const SAMPLE_MS = 60_000;
const POINTS = 48;

interface Day {
  /** UTC day the samples belong to (a new day starts an empty series). */
  day: string;
  /** Net volume per instrument and mode (real, demo), one entry per sample. */
  real: Map<number, number[]>;
  demo: Map<number, number[]>;
  samples: number;
}

/**
 * The day's net volume per instrument, sampled in memory from the risk engine once a minute (two passes over its
 * columns, well under a millisecond each at 100,000 positions). Every instance samples its own engine, which follows
 * the same book, so whichever answers the desk has the day since it started; a restart starts the series again
 * (the sparkline shows the day as far as this instance saw it: see docs/decisions.md).
 */
class NetHistory {
  private current: Day = { day: '', real: new Map(), demo: new Map(), samples: 0 };
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Ctx) {}

  start(everyMs = SAMPLE_MS): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  sample(now = new Date()): void {
    const day = now.toISOString().slice(0, 10);
    if (day !== this.current.day) this.current = { day, real: new Map(), demo: new Map(), samples: 0 };
    const d = this.current;
    for (const mode of ['real', 'demo'] as const) {
      const series = d[mode];
      const { instruments } = this.ctx.risk.exposure({ mode }, 'USD', false);
      const seen = new Set<number>();
      for (const s of instruments) {
        let list = series.get(s.instrumentId);
        if (!list) {
          list = new Array<number>(d.samples).fill(0);
          series.set(s.instrumentId, list);
        }
        list.push(s.longVolume - s.shortVolume);
        seen.add(s.instrumentId);
      }
      for (const [id, list] of series) if (!seen.has(id)) list.push(0);
    }
    d.samples++;
  }

  /** At most POINTS samples of the day (the last of each bucket), oldest first; both modes summed for 'all'. */
  of(instrumentId: number, mode: DeskMode): number[] {
    const d = this.current;
    const real = d.real.get(instrumentId);
    const demo = d.demo.get(instrumentId);
    const n = d.samples;
    if (n === 0) return [];
    const at = (i: number) => (mode !== 'demo' ? (real?.[i] ?? 0) : 0) + (mode !== 'real' ? (demo?.[i] ?? 0) : 0);
    const step = Math.max(1, Math.ceil(n / POINTS));
    const out: number[] = [];
    for (let i = Math.min(step, n) - 1; i < n; i += step) out.push(Math.round(at(i) * 1e8) / 1e8);
    if ((n - 1) % step !== step - 1 && n > 0) out.push(Math.round(at(n - 1) * 1e8) / 1e8);
    return out;
  }
}

const histories = new WeakMap<Db, NetHistory>();

/** Starts sampling for an app (the risk routes do it); returns the stop. */
export function startNetHistory(ctx: Ctx, everyMs?: number): () => void {
  const h = new NetHistory(ctx);
  histories.set(ctx.db, h);
  h.start(everyMs);
  return () => h.stop();
}

/** Takes a sample now (tests). */
export function sampleNetNow(db: Db): void {
  histories.get(db)?.sample();
}

export function netHistoryOf(ctx: Pick<AppContext, 'db'>, instrumentId: number, mode: DeskMode): number[] {
  return histories.get(ctx.db)?.of(instrumentId, mode) ?? [];
}
