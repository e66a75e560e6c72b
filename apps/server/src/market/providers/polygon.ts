import type { FeedProvider } from '../feed-provider.ts';
import type { Quote } from '../price-book.ts';
import type { InstrumentRow } from '../instruments.ts';
import { HeartbeatReporter, makeQuote, timingOf, toPrice, type ProviderDeps } from './common.ts';
import { reportDown, WsSession, wsFeed } from './ws-session.ts';

/**
 * Polygon.io real-time WebSocket, one cluster per connection:
 * - forex  (wss://socket.polygon.io/forex):  subscribe `C.EUR/USD`, quote events {ev:'C', p:'EUR/USD', b, a, t}
 * - crypto (wss://socket.polygon.io/crypto): subscribe `XQ.BTC-USD`, quote events {ev:'XQ', pair:'BTC-USD', bp, ap, t}
 * After connecting the client sends {"action":"auth","params":KEY}; the server answers with status events
 * ({ev:'status', status:'connected'|'auth_success'|'auth_failed'|'max_connections'|'success'|'error', message}).
 * Every frame is a JSON array of events; t is Unix milliseconds.
 */
export type PolygonMarket = 'forex' | 'crypto';

export interface PolygonOptions extends ProviderDeps {
  market: PolygonMarket;
  apiKey: string;
  /** Cluster host without the market path, e.g. wss://socket.polygon.io */
  baseUrl: string;
}

const CHANNEL: Record<PolygonMarket, string> = { forex: 'C', crypto: 'XQ' };

/** Our EUR_USD is Polygon's EUR/USD on the forex cluster; our BTC_USD is BTC-USD on the crypto cluster. */
export const polygonSymbol = (row: Pick<InstrumentRow, 'base' | 'quote'>, market: PolygonMarket): string =>
  market === 'forex' ? `${row.base}/${row.quote}` : `${row.base}-${row.quote}`;

/** Statuses after which retrying at once is pointless: wrong key, no plan for this cluster, or a second connection. */
const REFUSALS = new Set(['auth_failed', 'auth_timeout', 'max_connections']);

interface PolygonEvent {
  ev?: unknown;
  status?: unknown;
  message?: unknown;
  p?: unknown;
  pair?: unknown;
  a?: unknown;
  b?: unknown;
  ap?: unknown;
  bp?: unknown;
  t?: unknown;
}

export function createPolygonFeed(o: PolygonOptions): FeedProvider {
  const id = o.market === 'forex' ? 'polygonForex' : 'polygonCrypto';
  const timing = timingOf(o.timing);
  const beat = new HeartbeatReporter(id, o.onHeartbeat);
  let bySymbol = new Map<string, InstrumentRow>();

  const toQuote = (e: PolygonEvent): Quote | null => {
    const forex = o.market === 'forex';
    const symbol = forex ? e.p : e.pair;
    const row = typeof symbol === 'string' ? bySymbol.get(symbol.toUpperCase()) : undefined;
    const bid = toPrice(forex ? e.b : e.bp);
    const ask = toPrice(forex ? e.a : e.ap);
    if (!row || bid === null || ask === null) return null;
    return makeQuote(row, { bid, ask, time: typeof e.t === 'number' ? e.t : null });
  };

  const session = new WsSession({
    url: () => `${o.baseUrl.replace(/\/+$/, '')}/${o.market}`,
    timing,
    log: o.log,
    onOpen(s) {
      bySymbol = new Map(o.instruments().map((r) => [polygonSymbol(r, o.market).toUpperCase(), r]));
      s.send({ action: 'auth', params: o.apiKey });
    },
    onText(text, s) {
      const parsed: unknown = JSON.parse(text);
      const events = (Array.isArray(parsed) ? parsed : [parsed]) as PolygonEvent[];
      const quotes: Quote[] = [];
      for (const e of events) {
        if (!e || typeof e !== 'object') continue;
        if (e.ev === 'status') {
          const status = String(e.status ?? '');
          const message = typeof e.message === 'string' && e.message ? e.message : status;
          if (status === 'auth_success') {
            const params = [...bySymbol.keys()].map((sym) => `${CHANNEL[o.market]}.${sym}`).join(',');
            if (params) s.send({ action: 'subscribe', params });
            s.healthy();
            beat.report(true, `Connected: ${bySymbol.size} instruments`);
          } else if (REFUSALS.has(status)) {
            s.refuse(message);
          } else if (status === 'error') {
            o.log?.(`${id}: ${message}`);
            beat.report(false, message);
          }
        } else if (e.ev === CHANNEL[o.market]) {
          const q = toQuote(e);
          if (q) quotes.push(q);
        }
      }
      if (quotes.length) o.sink.apply(quotes);
    },
    onDown: (down) => reportDown(id, beat, o.log, down),
  });

  return wsFeed(id, session, beat);
}
