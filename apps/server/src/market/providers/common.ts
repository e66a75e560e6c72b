import type { Heartbeat } from '@platform/domain';
import type { Quote } from '../price-book.ts';
import type { InstrumentRow } from '../instruments.ts';

export type HeartbeatApi = Heartbeat['api'];

/** Where a provider writes its quotes: the price book, or the feed manager's market-hours gate in front of it. */
export interface QuoteSink {
  apply(quotes: readonly Quote[]): void;
}

/** Reconnection timing; tests shorten every delay. */
export interface ProviderTiming {
  /** First retry after a drop; doubles on each failed attempt up to maxRetryMs. */
  minRetryMs: number;
  maxRetryMs: number;
  /**
   * Retry after the provider refused the credentials. A refused key rarely fixes itself, and hammering a
   * provider with it can get the account blocked; saving new settings restarts the provider at once anyway.
   */
  authRetryMs: number;
  /** A connection that delivered nothing (not even a keep-alive) for this long is treated as dead. */
  stallMs: number;
}

export const DEFAULT_TIMING: ProviderTiming = {
  minRetryMs: 1000,
  maxRetryMs: 60_000,
  authRetryMs: 5 * 60_000,
  stallMs: 10_000,
};

/** What every provider adapter is given. */
export interface ProviderDeps {
  sink: QuoteSink;
  /** The instruments this provider prices, read at each (re)connect so edits apply on the next session. */
  instruments: () => readonly InstrumentRow[];
  onHeartbeat: (beat: Heartbeat) => void;
  log?: (msg: string) => void;
  timing?: Partial<ProviderTiming>;
}

export const timingOf = (t: Partial<ProviderTiming> | undefined): ProviderTiming => ({ ...DEFAULT_TIMING, ...t });

/** Providers send prices as numbers or decimal strings; anything else is not a price. */
export function toPrice(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Rounds to the instrument's digits, so the book never holds more precision than the instrument quotes. */
export const roundTo = (v: number, digits: number): number => Number(v.toFixed(digits));

/** Builds a quote in our terms: prices rounded to the instrument's digits, closeout = bid/ask when the provider has none. */
export function makeQuote(
  row: Pick<InstrumentRow, 'name' | 'digits'>,
  p: { bid: number; ask: number; closeoutBid?: number | null; closeoutAsk?: number | null; time?: number | null },
): Quote {
  const d = row.digits;
  return {
    name: row.name,
    bid: roundTo(p.bid, d),
    ask: roundTo(p.ask, d),
    closeoutBid: roundTo(p.closeoutBid ?? p.bid, d),
    closeoutAsk: roundTo(p.closeoutAsk ?? p.ask, d),
    time: p.time && Number.isFinite(p.time) ? p.time : Date.now(),
  };
}

/** Exponential backoff: minRetryMs, 2×, 4×, ... capped at maxRetryMs; reset once a session is healthy. */
export class Backoff {
  private attempt = 0;
  constructor(private readonly timing: ProviderTiming) {}

  next(): number {
    const ms = Math.min(this.timing.maxRetryMs, this.timing.minRetryMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return ms;
  }

  reset(): void {
    this.attempt = 0;
  }
}

/**
 * Emits heartbeats for one api, dropping exact repeats so a flapping connection does not flood the staff
 * screens, and nothing at all once the provider is stopped (a late socket event must not overwrite the status
 * of the provider that replaced it).
 */
export class HeartbeatReporter {
  private last: Heartbeat | null = null;
  private muted = false;
  constructor(
    private readonly api: HeartbeatApi,
    private readonly emit: (beat: Heartbeat) => void,
  ) {}

  report(success: boolean, msg: string): void {
    if (this.muted) return;
    if (this.last && this.last.success === success && this.last.msg === msg) return;
    this.last = { api: this.api, success, msg };
    this.emit(this.last);
  }

  mute(): void {
    this.muted = true;
  }

  unmute(): void {
    this.muted = false;
    this.last = null;
  }
}

export const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);
