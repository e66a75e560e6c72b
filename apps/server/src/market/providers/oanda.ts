import type { FeedProvider } from '../feed-provider.ts';
import type { InstrumentRow } from '../instruments.ts';
import { Backoff, HeartbeatReporter, makeQuote, seconds, timingOf, toPrice, type ProviderDeps } from './common.ts';
import { providerMessage } from './ws-session.ts';

/**
 * Oanda v20 pricing stream: GET {host}/v3/accounts/{account}/pricing/stream?instruments=EUR_USD,XAU_USD with
 * `Authorization: Bearer KEY`. The body is newline-delimited JSON that never ends: PRICE lines
 * {type:'PRICE', instrument, time (RFC 3339), bids:[{price}], asks:[{price}], closeoutBid, closeoutAsk, tradeable}
 * with prices as decimal strings, and a HEARTBEAT line every 5 s. Errors come back as an HTTP status with
 * {errorMessage}. Our instrument names are Oanda's (EUR_USD, XAU_USD, SPX500_USD).
 */
export type OandaMode = 'fxpractice' | 'fxtrade';

export interface OandaOptions extends ProviderDeps {
  accountId: string;
  apiKey: string;
  /** 'fxpractice' streams from the practice host; anything else from the live host. */
  mode: string;
  /** Overrides the host picked by mode (OANDA_STREAM_URL). */
  baseUrl?: string;
}

export const oandaStreamHost = (mode: string, override?: string): string =>
  (
    override || (mode === 'fxpractice' ? 'https://stream-fxpractice.oanda.com' : 'https://stream-fxtrade.oanda.com')
  ).replace(/\/+$/, '');

/** HTTP statuses that mean the settings are wrong (token, account, instrument list), not that Oanda is down. */
const REFUSED = new Set([400, 401, 403, 404]);

interface SessionEnd {
  reason: string;
  refused: boolean;
}

interface OandaLine {
  type?: unknown;
  instrument?: unknown;
  time?: unknown;
  bids?: Array<{ price?: unknown }>;
  asks?: Array<{ price?: unknown }>;
  closeoutBid?: unknown;
  closeoutAsk?: unknown;
  tradeable?: unknown;
  errorMessage?: unknown;
}

export function createOandaFeed(o: OandaOptions): FeedProvider {
  const id = 'oandaRest';
  const timing = timingOf(o.timing);
  const beat = new HeartbeatReporter(id, o.onHeartbeat);
  const backoff = new Backoff(timing);
  let running = false;
  let current: AbortController | null = null;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const handleLine = (line: string, byName: Map<string, InstrumentRow>): void => {
    const m = JSON.parse(line) as OandaLine;
    if (m.type !== 'PRICE') return;
    const row = typeof m.instrument === 'string' ? byName.get(m.instrument) : undefined;
    // A non-tradeable price is one no client could deal on (market closed, instrument halted): keep the last one.
    if (!row || m.tradeable === false) return;
    const bid = toPrice(m.bids?.[0]?.price);
    const ask = toPrice(m.asks?.[0]?.price);
    if (bid === null || ask === null) return;
    const time = typeof m.time === 'string' ? Date.parse(m.time) : NaN;
    o.sink.apply([
      makeQuote(row, { bid, ask, closeoutBid: toPrice(m.closeoutBid), closeoutAsk: toPrice(m.closeoutAsk), time }),
    ]);
  };

  /** One streaming request, from connect to its end; resolves with why it ended. */
  const session = async (): Promise<SessionEnd> => {
    const rows = o.instruments();
    if (rows.length === 0) return { reason: 'no instruments to stream', refused: true };
    const byName = new Map(rows.map((r) => [r.name, r]));
    const ac = new AbortController();
    current = ac;
    let lastSeen = Date.now();
    let stalled = false;
    // Oanda sends a HEARTBEAT line every 5 s even when prices stand still, so silence means a dead connection.
    const watchdog = setInterval(
      () => {
        if (Date.now() - lastSeen > timing.stallMs) {
          stalled = true;
          ac.abort();
        }
      },
      Math.max(50, Math.floor(timing.stallMs / 4)),
    );
    const url = `${oandaStreamHost(o.mode, o.baseUrl)}/v3/accounts/${encodeURIComponent(o.accountId)}/pricing/stream?instruments=${encodeURIComponent([...byName.keys()].join(','))}`;
    try {
      const res = await fetch(url, {
        headers: { Authorization: `Bearer ${o.apiKey}`, 'Accept-Datetime-Format': 'RFC3339' },
        signal: ac.signal,
      });
      if (!res.ok || !res.body) {
        const message = providerMessage(await res.text().catch(() => '')) ?? `HTTP ${res.status}`;
        return { reason: message, refused: REFUSED.has(res.status) };
      }
      const decoder = new TextDecoder();
      let buffer = '';
      let confirmed = false;
      for await (const chunk of res.body) {
        lastSeen = Date.now();
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          if (!confirmed) {
            confirmed = true;
            backoff.reset();
            beat.report(true, `Connected: ${byName.size} instruments`);
          }
          try {
            handleLine(line, byName);
          } catch (err) {
            o.log?.(`${id}: unreadable line: ${(err as Error).message}`);
          }
        }
      }
      return { reason: 'stream ended by provider', refused: false };
    } catch (err) {
      if (stalled) return { reason: `no data for ${seconds(timing.stallMs)}`, refused: false };
      return { reason: errorText(err), refused: false };
    } finally {
      clearInterval(watchdog);
      if (current === ac) current = null;
      ac.abort();
    }
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const run = async (): Promise<void> => {
    while (running) {
      const end = await session();
      if (!running) break;
      const delay = end.refused ? timing.authRetryMs : backoff.next();
      o.log?.(`${id}: ${end.reason}`);
      beat.report(false, end.refused ? end.reason : `Disconnected (${end.reason}); reconnecting in ${seconds(delay)}`);
      await sleep(delay);
    }
  };

  return {
    id,
    start() {
      if (running) return;
      running = true;
      beat.unmute();
      loop = run();
    },
    async stop() {
      running = false;
      beat.mute();
      current?.abort();
      wake?.();
      await loop;
      loop = null;
    },
  };
}

/** fetch wraps network failures as "fetch failed" with the useful part in `cause`. */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return err.message;
}
