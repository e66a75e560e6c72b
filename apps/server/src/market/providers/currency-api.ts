import type { DbOrTx } from '../../db/client.ts';
import { putSetting } from '../../modules/settings/service.ts';
import type { FeedProvider } from '../feed-provider.ts';
import { providerMessage } from './ws-session.ts';

/**
 * currencyapi.com v3, header `apikey: KEY`:
 * - GET {base}/latest?base_currency=USD -> {meta, data: {EUR: {code:'EUR', value: 0.92}, ...}} (costs one request)
 * - GET {base}/status -> {quotas: {month: {total, used, remaining}}} (free)
 * Successful responses also carry X-RateLimit-Limit-Quota-Month / X-RateLimit-Remaining-Quota-Month.
 * Rates are units of each currency per 1 USD; they convert wallet currencies no forex pair in the book covers.
 */
export interface CurrencyQuota {
  total: number;
  used: number;
  remaining: number;
}

export interface CurrencyApiFeed extends FeedProvider {
  /** Units of currency per 1 USD (USD itself is 1); empty until the first successful refresh. */
  rates(): ReadonlyMap<string, number>;
  quota(): CurrencyQuota | null;
  /** Fetches quota and rates now; never throws (failures are logged and retried on the schedule). */
  refresh(): Promise<void>;
}

export interface CurrencyApiOptions {
  apiKey: string;
  /** API base, e.g. https://api.currencyapi.com/v3 */
  baseUrl: string;
  db: DbOrTx;
  log?: (msg: string) => void;
  /** Shortest gap between two paid refreshes; one hour. */
  minIntervalMs?: number;
  /** Retry after a failed refresh; ten minutes. */
  retryMs?: number;
  now?: () => number;
}

const HOUR = 3_600_000;

export function createCurrencyApiFeed(o: CurrencyApiOptions): CurrencyApiFeed {
  const base = o.baseUrl.replace(/\/+$/, '');
  const now = o.now ?? Date.now;
  const minInterval = o.minIntervalMs ?? HOUR;
  const retryMs = o.retryMs ?? 10 * 60_000;
  let rates: ReadonlyMap<string, number> = new Map();
  let quota: CurrencyQuota | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let inFlight: Promise<void> | null = null;

  const get = async (path: string): Promise<Response> => {
    const res = await fetch(`${base}${path}`, {
      headers: { apikey: o.apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(providerMessage(await res.text().catch(() => '')) ?? `HTTP ${res.status}`);
    return res;
  };

  const fetchQuota = async (): Promise<CurrencyQuota> => {
    const body = (await (await get('/status')).json()) as { quotas?: { month?: Partial<CurrencyQuota> } };
    const m = body.quotas?.month ?? {};
    const total = Number(m.total ?? 0);
    const used = Number(m.used ?? 0);
    return { total, used, remaining: Number(m.remaining ?? Math.max(0, total - used)) };
  };

  const fetchRates = async (): Promise<{ rates: Map<string, number>; headers: Headers }> => {
    const res = await get('/latest?base_currency=USD');
    const body = (await res.json()) as { data?: Record<string, { code?: string; value?: unknown }> };
    const next = new Map<string, number>([['USD', 1]]);
    for (const [code, entry] of Object.entries(body.data ?? {})) {
      const v = Number(entry?.value);
      if (Number.isFinite(v) && v > 0) next.set((entry.code ?? code).toUpperCase(), v);
    }
    return { rates: next, headers: res.headers };
  };

  /**
   * The next paid refresh: hourly, unless the month's remaining quota cannot cover that, then spread evenly
   * over the rest of the month so the rates never stop before the quota renews.
   */
  const nextDelay = (q: CurrencyQuota | null): number => {
    if (!q) return minInterval;
    const d = new Date(now());
    const monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    const left = monthEnd - now();
    if (q.remaining <= 0) return Math.max(minInterval, left);
    return Math.max(minInterval, Math.ceil(left / q.remaining));
  };

  const saveQuota = async (q: CurrencyQuota): Promise<void> => {
    quota = q;
    await putSetting(o.db, 'currencyAPI', { value2: String(q.remaining), value3: String(q.total) });
  };

  const doRefresh = async (): Promise<number> => {
    try {
      let q = await fetchQuota();
      await saveQuota(q);
      if (q.remaining <= 0) {
        o.log?.('currencyAPI: monthly quota used up; keeping the last rates');
        return nextDelay(q);
      }
      const fetched = await fetchRates();
      rates = fetched.rates;
      // The paid call used one request: prefer the provider's own count, else count it ourselves.
      const limit = Number(fetched.headers.get('x-ratelimit-limit-quota-month'));
      const remaining = Number(fetched.headers.get('x-ratelimit-remaining-quota-month'));
      q =
        fetched.headers.has('x-ratelimit-remaining-quota-month') && Number.isFinite(remaining)
          ? {
              total: Number.isFinite(limit) && limit > 0 ? limit : q.total,
              remaining,
              used: Math.max(0, (limit || q.total) - remaining),
            }
          : { total: q.total, used: q.used + 1, remaining: Math.max(0, q.remaining - 1) };
      await saveQuota(q);
      return nextDelay(q);
    } catch (err) {
      o.log?.(`currencyAPI: ${(err as Error).message}`);
      return retryMs;
    }
  };

  const schedule = (ms: number): void => {
    if (!running) return;
    timer = setTimeout(() => {
      timer = null;
      void refresh();
    }, ms);
    timer.unref();
  };

  const refresh = async (): Promise<void> => {
    if (inFlight !== null) return inFlight;
    inFlight = (async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const delay = await doRefresh();
      schedule(delay);
    })();
    try {
      await inFlight;
    } finally {
      inFlight = null;
    }
  };

  return {
    id: 'currencyAPI',
    rates: () => rates,
    quota: () => quota,
    refresh,
    start() {
      if (running) return;
      running = true;
      // In the background: a slow provider must not hold up the server's start.
      void refresh();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight?.catch(() => undefined);
    },
  };
}
