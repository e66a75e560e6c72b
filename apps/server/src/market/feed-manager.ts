import { CATEGORIES, type Category, type Heartbeat } from '@platform/domain';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { getSettings } from '../modules/settings/service.ts';
import type { PriceBook, Quote } from './price-book.ts';
import type { InstrumentRegistry, InstrumentRow } from './instruments.ts';
import type { FeedProvider } from './feed-provider.ts';
import type { ProviderTiming, QuoteSink } from './providers/common.ts';
import { createPolygonFeed } from './providers/polygon.ts';
import { createEodFeed } from './providers/eod.ts';
import { createOandaFeed } from './providers/oanda.ts';
import { createCurrencyApiFeed, type CurrencyApiFeed } from './providers/currency-api.ts';
import { priceTicks } from '../lib/metrics.ts';
import { SIMULATED_USD_RATES } from './simulated-rates.ts';

/** Who prices a category: one of the real providers (named as their heartbeat api) or the simulated feed. */
export type FeedSource = Heartbeat['api'] | 'simulated';

export interface FeedManager {
  /** Reads the API settings records and starts the providers they call for. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Re-reads the API settings records (and the instrument list) and restarts only the providers whose settings
   * or instruments changed; call it after staff save Trade APIs or edit instruments.
   */
  reload(): Promise<void>;
  /**
   * Units of each currency per 1 USD: the currency API's rates where it has them, else the simulated feed's
   * conversion rates (HKD). The same map until either changes.
   */
  usdRates(): ReadonlyMap<string, number>;
  /** The last heartbeat of each provider api that has reported since start. */
  heartbeats(): Heartbeat[];
  /** The source pricing each category right now. */
  sources(): Record<Category, FeedSource>;
}

export interface FeedManagerDeps {
  db: Db;
  config: Config;
  book: PriceBook;
  instruments: InstrumentRegistry;
  realtime: Realtime;
  isOpen: (c: Category) => boolean;
  /** Builds the simulated feed over the instruments no real provider covers, read through the function each time. */
  simulated: (instruments: () => readonly InstrumentRow[]) => FeedProvider;
  log?: (msg: string) => void;
  /** Reconnection timing of the real providers (tests shorten it). */
  timing?: Partial<ProviderTiming>;
}

/** The Trade APIs settings records, reduced to what decides which providers run. */
interface ApiKeys {
  polygon: string | null;
  eod: string | null;
  oanda: { accountId: string; apiKey: string; mode: string } | null;
  currency: string | null;
}

export async function readKeys(db: Db): Promise<ApiKeys> {
  const s = await getSettings(db, ['polygonAPI', 'eodAPI', 'oandaAPI', 'currencyAPI']);
  const v = (x: string | null | undefined): string | null => x?.trim() || null;
  const oandaAccount = v(s.oandaAPI?.value1);
  const oandaKey = v(s.oandaAPI?.value2);
  return {
    polygon: v(s.polygonAPI?.value1),
    eod: v(s.eodAPI?.value1),
    oanda:
      oandaAccount && oandaKey
        ? { accountId: oandaAccount, apiKey: oandaKey, mode: v(s.oandaAPI?.value3) ?? 'fxpractice' }
        : null,
    currency: v(s.currencyAPI?.value1),
  };
}

/**
 * forex: Polygon, else Oanda, else simulated; crypto: Polygon; stocks: EOD; commodities and indices: Oanda.
 * A category without a configured provider is simulated.
 */
export function routeCategories(keys: Pick<ApiKeys, 'polygon' | 'eod' | 'oanda'>): Record<Category, FeedSource> {
  return {
    forex: keys.polygon ? 'polygonForex' : keys.oanda ? 'oandaRest' : 'simulated',
    crypto: keys.polygon ? 'polygonCrypto' : 'simulated',
    stock: keys.eod ? 'eodStock' : 'simulated',
    commodity: keys.oanda ? 'oandaRest' : 'simulated',
    index: keys.oanda ? 'oandaRest' : 'simulated',
  };
}

/** A provider the current settings call for; `signature` changes exactly when it must be restarted. */
interface Plan {
  id: string;
  signature: string;
  create(): FeedProvider;
}

interface Running {
  signature: string;
  provider: FeedProvider;
}

export function createFeedManager(deps: FeedManagerDeps): FeedManager {
  const { config, instruments, log } = deps;
  const running = new Map<string, Running>();
  const beats = new Map<Heartbeat['api'], Heartbeat>();
  let routes: Record<Category, FeedSource> = routeCategories({ polygon: null, eod: null, oanda: null });
  let currency: CurrencyApiFeed | null = null;
  let started = false;
  /** reload() calls run one after another, so two quick saves cannot start a provider twice. */
  let queue: Promise<void> = Promise.resolve();
  /** The merged USD rates and the currency API's map they were made from. */
  let merged: { from: ReadonlyMap<string, number> | null; rates: ReadonlyMap<string, number> } = {
    from: null,
    rates: SIMULATED_USD_RATES,
  };
  const usdRates = (): ReadonlyMap<string, number> => {
    const live = currency?.rates() ?? null;
    if (live !== merged.from)
      merged = { from: live, rates: live?.size ? new Map([...SIMULATED_USD_RATES, ...live]) : SIMULATED_USD_RATES };
    return merged.rates;
  };

  const onHeartbeat = (beat: Heartbeat): void => {
    beats.set(beat.api, beat);
    deps.realtime.toAdmins('heartbeat', beat);
  };

  // Real providers keep streaming around the clock; a closed market's prices stand still, as its status says.
  const sink: QuoteSink = {
    apply(quotes: readonly Quote[]) {
      const open = quotes.filter((q) => {
        const row = instruments.byNameOf(q.name);
        return row !== undefined && deps.isOpen(row.category);
      });
      if (open.length) deps.book.apply(open);
      priceTicks.inc(open.length);
    },
  };

  const categoriesOf = (source: FeedSource): Category[] => CATEGORIES.filter((c) => routes[c] === source);
  const rowsOf = (source: FeedSource) => (): readonly InstrumentRow[] => {
    const cats = new Set(categoriesOf(source));
    return instruments.list().filter((r) => cats.has(r.category));
  };
  /** Instruments as a provider subscribes to them: a change of name, symbol or digits needs a new session. */
  const instrumentKey = (source: FeedSource): string =>
    rowsOf(source)()
      .map((r) => `${r.name}:${r.base}/${r.quote}:${r.digits}`)
      .join(',');

  const plansFor = (keys: ApiKeys): Plan[] => {
    const plans: Plan[] = [];
    const common = (source: Heartbeat['api']) => ({
      sink,
      instruments: rowsOf(source),
      onHeartbeat,
      log,
      timing: deps.timing,
    });
    const used = new Set(Object.values(routes));
    if (used.has('polygonForex') && keys.polygon) {
      const apiKey = keys.polygon;
      plans.push({
        id: 'polygonForex',
        signature: JSON.stringify([apiKey, config.POLYGON_WS_URL, instrumentKey('polygonForex')]),
        create: () =>
          createPolygonFeed({ ...common('polygonForex'), market: 'forex', apiKey, baseUrl: config.POLYGON_WS_URL }),
      });
    }
    if (used.has('polygonCrypto') && keys.polygon) {
      const apiKey = keys.polygon;
      plans.push({
        id: 'polygonCrypto',
        signature: JSON.stringify([apiKey, config.POLYGON_WS_URL, instrumentKey('polygonCrypto')]),
        create: () =>
          createPolygonFeed({ ...common('polygonCrypto'), market: 'crypto', apiKey, baseUrl: config.POLYGON_WS_URL }),
      });
    }
    if (used.has('eodStock') && keys.eod) {
      const apiKey = keys.eod;
      plans.push({
        id: 'eodStock',
        signature: JSON.stringify([apiKey, config.EOD_WS_URL, instrumentKey('eodStock')]),
        create: () => createEodFeed({ ...common('eodStock'), apiKey, baseUrl: config.EOD_WS_URL }),
      });
    }
    if (used.has('oandaRest') && keys.oanda) {
      const oanda = keys.oanda;
      plans.push({
        id: 'oandaRest',
        signature: JSON.stringify([oanda, config.OANDA_STREAM_URL ?? '', instrumentKey('oandaRest')]),
        create: () => createOandaFeed({ ...common('oandaRest'), ...oanda, baseUrl: config.OANDA_STREAM_URL }),
      });
    }
    if (used.has('simulated')) {
      plans.push({
        id: 'simulated',
        // The simulated feed reads its instruments through the function, so only the set of categories matters.
        signature: categoriesOf('simulated').join(','),
        create: () => deps.simulated(rowsOf('simulated')),
      });
    }
    if (keys.currency) {
      const apiKey = keys.currency;
      plans.push({
        id: 'currencyAPI',
        signature: JSON.stringify([apiKey, config.CURRENCY_API_URL]),
        create: () => {
          currency = createCurrencyApiFeed({ apiKey, baseUrl: config.CURRENCY_API_URL, db: deps.db, log });
          return currency;
        },
      });
    }
    return plans;
  };

  const isHeartbeatApi = (id: string): id is Heartbeat['api'] =>
    id === 'polygonForex' || id === 'polygonCrypto' || id === 'eodStock' || id === 'oandaRest';

  const apply = async (): Promise<void> => {
    const keys = await readKeys(deps.db);
    routes = routeCategories(keys);
    const plans = new Map(plansFor(keys).map((p) => [p.id, p]));
    // Stop first: Polygon allows one connection per cluster, so the old session must be gone before the new one.
    for (const [id, r] of [...running]) {
      const plan = plans.get(id);
      if (plan && plan.signature === r.signature) continue;
      running.delete(id);
      await r.provider.stop();
      if (id === 'currencyAPI') currency = null;
      if (!plan && isHeartbeatApi(id))
        onHeartbeat({ api: id, success: false, msg: 'Not configured: its prices are simulated' });
      log?.(`feed ${id} stopped`);
    }
    for (const [id, plan] of plans) {
      if (running.has(id)) continue;
      const provider = plan.create();
      running.set(id, { signature: plan.signature, provider });
      await provider.start();
      log?.(`feed ${id} started`);
    }
  };

  const serial = (fn: () => Promise<void>): Promise<void> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    start: () =>
      serial(async () => {
        started = true;
        await apply();
      }),
    stop: () =>
      serial(async () => {
        started = false;
        const all = [...running.values()];
        running.clear();
        currency = null;
        await Promise.all(all.map((r) => r.provider.stop()));
      }),
    reload: () =>
      serial(async () => {
        if (started) await apply();
      }),
    usdRates,
    heartbeats: () => [...beats.values()],
    sources: () => ({ ...routes }),
  };
}
