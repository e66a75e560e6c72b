import type { FeedProvider } from '../feed-provider.ts';
import type { Quote } from '../price-book.ts';
import type { InstrumentRow } from '../instruments.ts';
import { HeartbeatReporter, makeQuote, timingOf, toPrice, type ProviderDeps } from './common.ts';
import { reportDown, WsSession, wsFeed } from './ws-session.ts';

/**
 * EOD Historical Data real-time US quotes: wss://ws.eodhistoricaldata.com/ws/us-quote?api_token=KEY.
 * The server greets with {"status_code":200,"message":"Authorized"} (or a non-200 status_code / status and a
 * message when the token is refused); the client sends {"action":"subscribe","symbols":"AAPL,MSFT"}; quotes
 * arrive one per frame as {s:'AAPL', ap, as, bp, bs, t} with t in Unix milliseconds.
 */
export interface EodOptions extends ProviderDeps {
  apiKey: string;
  /** WebSocket base without the feed path, e.g. wss://ws.eodhistoricaldata.com/ws */
  baseUrl: string;
}

/** Our AAPL_USD is EOD's AAPL: US tickers are quoted in USD, so the base alone names the stock. */
export const eodSymbol = (row: Pick<InstrumentRow, 'base'>): string => row.base.toUpperCase();

interface EodMessage {
  status_code?: unknown;
  status?: unknown;
  message?: unknown;
  s?: unknown;
  ap?: unknown;
  bp?: unknown;
  t?: unknown;
}

export function createEodFeed(o: EodOptions): FeedProvider {
  const id = 'eodStock';
  const timing = timingOf(o.timing);
  const beat = new HeartbeatReporter(id, o.onHeartbeat);
  let bySymbol = new Map<string, InstrumentRow>();
  let confirmed = false;

  const connected = (s: WsSession): void => {
    if (confirmed) return;
    confirmed = true;
    s.healthy();
    beat.report(true, `Connected: ${bySymbol.size} instruments`);
  };

  const session = new WsSession({
    url: () => `${o.baseUrl.replace(/\/+$/, '')}/us-quote?api_token=${encodeURIComponent(o.apiKey)}`,
    timing,
    log: o.log,
    onOpen(s) {
      confirmed = false;
      bySymbol = new Map(o.instruments().map((r) => [eodSymbol(r), r]));
      // The token travels in the URL, so subscribing right away is safe: a refused token gets no data.
      if (bySymbol.size) s.send({ action: 'subscribe', symbols: [...bySymbol.keys()].join(',') });
    },
    onText(text, s) {
      const m = JSON.parse(text) as EodMessage;
      if (!m || typeof m !== 'object') return;
      const status = m.status_code ?? m.status;
      if (status !== undefined && m.s === undefined) {
        const message = typeof m.message === 'string' && m.message ? m.message : `status ${String(status)}`;
        if (Number(status) === 200) connected(s);
        else s.refuse(message);
        return;
      }
      if (typeof m.s !== 'string') return;
      const row = bySymbol.get(m.s.toUpperCase());
      const bid = toPrice(m.bp);
      const ask = toPrice(m.ap);
      if (!row || bid === null || ask === null) return;
      connected(s);
      const quote: Quote = makeQuote(row, { bid, ask, time: typeof m.t === 'number' ? m.t : null });
      o.sink.apply([quote]);
    },
    onDown: (down) => reportDown(id, beat, o.log, down),
  });

  return wsFeed(id, session, beat);
}
