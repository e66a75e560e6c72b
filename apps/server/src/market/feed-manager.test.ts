import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '@platform/domain';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { putSetting } from '../modules/settings/service.ts';
import { createRealtime, type Realtime } from '../realtime/realtime.ts';
import { PriceBook } from './price-book.ts';
import type { InstrumentRow } from './instruments.ts';
import type { FeedProvider } from './feed-provider.ts';
import { createFeedManager, type FeedManager } from './feed-manager.ts';
import { FakePolygon } from '../../test/fakes/polygon.ts';
import { FakeEod } from '../../test/fakes/eod.ts';
import { FakeOanda } from '../../test/fakes/oanda.ts';
import { FakeCurrencyApi } from '../../test/fakes/currency-api.ts';
import { waitFor } from '../../test/fakes/wait.ts';

let t: TestApp;
let polygon: FakePolygon;
let eod: FakeEod;
let oanda: FakeOanda;
let currencyApi: FakeCurrencyApi;
let manager: FeedManager | null = null;

beforeAll(async () => {
  t = await createTestApp();
  [polygon, eod, oanda, currencyApi] = await Promise.all([
    FakePolygon.start('poly-key'),
    FakeEod.start('eod-key'),
    FakeOanda.start('001-001', 'oanda-key'),
    FakeCurrencyApi.start('cur-key'),
  ]);
});
afterEach(async () => {
  await manager?.stop();
  manager = null;
  await setKeys({});
});
afterAll(async () => {
  await Promise.all([polygon.close(), eod.close(), oanda.close(), currencyApi.close()]);
  await t.close();
});

async function setKeys(k: {
  polygon?: string;
  eod?: string;
  oanda?: [string, string];
  currency?: string;
}): Promise<void> {
  const db = t.ctx.db;
  await putSetting(db, 'polygonAPI', { value1: k.polygon ?? '' });
  await putSetting(db, 'eodAPI', { value1: k.eod ?? '' });
  await putSetting(db, 'oandaAPI', { value1: k.oanda?.[0] ?? '', value2: k.oanda?.[1] ?? '', value3: 'fxpractice' });
  await putSetting(db, 'currencyAPI', { value1: k.currency ?? '' });
}

/** A stand-in for the simulated feed that records what it was asked to price. */
function fakeSimulated() {
  const made: Array<{ instruments: () => readonly InstrumentRow[]; started: number; stopped: number }> = [];
  const factory = (instruments: () => readonly InstrumentRow[]): FeedProvider => {
    const rec = { instruments, started: 0, stopped: 0 };
    made.push(rec);
    return { id: 'simulated', start: () => void rec.started++, stop: () => void rec.stopped++ };
  };
  const categories = (i = made.length - 1) => [...new Set(made[i].instruments().map((r) => r.category))].sort();
  return { factory, made, categories };
}

function build(opts: { isOpen?: (c: Category) => boolean; config?: Partial<typeof t.ctx.config> } = {}) {
  const sim = fakeSimulated();
  const book = new PriceBook();
  const staff: Array<{ event: string; payload: unknown }> = [];
  // A realtime server never attached to HTTP: emits go nowhere, staff events are recorded.
  const realtime: Realtime = { ...createRealtime(), toAdmins: (event, payload) => void staff.push({ event, payload }) };
  manager = createFeedManager({
    db: t.ctx.db,
    config: {
      ...t.ctx.config,
      POLYGON_WS_URL: polygon.url,
      EOD_WS_URL: eod.url,
      OANDA_STREAM_URL: oanda.url,
      CURRENCY_API_URL: currencyApi.url,
      ...opts.config,
    },
    book,
    instruments: t.ctx.market.instruments,
    realtime,
    isOpen: opts.isOpen ?? (() => true),
    simulated: sim.factory,
    timing: { minRetryMs: 50, maxRetryMs: 200, authRetryMs: 60_000, stallMs: 2000 },
  });
  return { m: manager, sim, book, staff };
}

describe('feed manager', () => {
  it('simulates every instrument of every category when no API key is set', async () => {
    const { m, sim } = build();
    await m.start();
    expect(m.sources()).toEqual({
      forex: 'simulated',
      commodity: 'simulated',
      index: 'simulated',
      stock: 'simulated',
      crypto: 'simulated',
    });
    expect(sim.made).toHaveLength(1);
    expect(sim.made[0].started).toBe(1);
    expect(sim.made[0].instruments()).toHaveLength(t.ctx.market.instruments.list().length);
    expect(m.heartbeats()).toEqual([]);
    // Without a currency API, only the simulated feed's rates for currencies no pair links (HKD of HK33).
    expect(Object.fromEntries(m.usdRates())).toEqual({ USD: 1, HKD: 7.8 });
    expect(m.usdRates()).toBe(m.usdRates());
  });

  it('sends forex and crypto to Polygon with a Polygon key and simulates the rest', async () => {
    await setKeys({ polygon: 'poly-key' });
    const { m, sim, book, staff } = build({ isOpen: (c) => c !== 'crypto' });
    await m.start();
    expect(m.sources()).toEqual({
      forex: 'polygonForex',
      crypto: 'polygonCrypto',
      stock: 'simulated',
      commodity: 'simulated',
      index: 'simulated',
    });
    expect(sim.categories()).toEqual(['commodity', 'index', 'stock']);
    await waitFor('both clusters', () => polygon.authed('forex') === 1 && polygon.authed('crypto') === 1);
    await waitFor('success heartbeats', () => m.heartbeats().filter((b) => b.success).length === 2);
    expect(staff.filter((s) => s.event === 'heartbeat').map((s) => s.payload)).toEqual(
      expect.arrayContaining(m.heartbeats()),
    );

    polygon.push('forex', [{ ev: 'C', p: 'EUR/USD', a: 1.08531, b: 1.0852, t: 1736157600000 }]);
    polygon.push('crypto', [{ ev: 'XQ', pair: 'BTC-USD', bp: 91000, ap: 91010, t: 1736157600000 }]);
    await waitFor('forex quote', () => book.get('EUR_USD'));
    // The crypto market is closed in this test: its prices stand still.
    expect(book.get('BTC_USD')).toBeUndefined();
  });

  it('reload() switches categories between providers and restarts only what changed', async () => {
    const { m, sim } = build();
    await m.start();
    expect(sim.made).toHaveLength(1);

    await setKeys({ polygon: 'poly-key' });
    await m.reload();
    expect(sim.made[0].stopped).toBe(1);
    expect(sim.made).toHaveLength(2);
    expect(sim.categories(1)).toEqual(['commodity', 'index', 'stock']);
    await waitFor('polygon sessions', () => polygon.authed('forex') === 1 && polygon.authed('crypto') === 1);
    const polygonAuths = polygon.auths.length;

    await setKeys({ polygon: 'poly-key', eod: 'eod-key' });
    await m.reload();
    expect(m.sources().stock).toBe('eodStock');
    expect(sim.categories(2)).toEqual(['commodity', 'index']);
    await waitFor('eod session', () => eod.subscribers('AAPL') === 1);
    // Polygon's settings did not change: its sessions were left alone.
    expect(polygon.auths.length).toBe(polygonAuths);

    await m.reload();
    expect(sim.made).toHaveLength(3);

    await setKeys({ eod: 'eod-key' });
    await m.reload();
    expect(m.sources()).toMatchObject({ forex: 'simulated', crypto: 'simulated', stock: 'eodStock' });
    await waitFor('polygon closed', () => polygon.authed('forex') === 0 && polygon.authed('crypto') === 0);
    expect(m.heartbeats().find((b) => b.api === 'polygonForex')).toEqual({
      api: 'polygonForex',
      success: false,
      msg: 'Not configured: its prices are simulated',
    });
    expect(sim.categories(3)).toEqual(['commodity', 'crypto', 'forex', 'index']);
  });

  it('sends forex, commodities and indices to Oanda without a Polygon key', async () => {
    await setKeys({ oanda: ['001-001', 'oanda-key'] });
    const { m, sim, book } = build();
    await m.start();
    expect(m.sources()).toEqual({
      forex: 'oandaRest',
      commodity: 'oandaRest',
      index: 'oandaRest',
      stock: 'simulated',
      crypto: 'simulated',
    });
    expect(sim.categories()).toEqual(['crypto', 'stock']);
    await waitFor('oanda stream', () => oanda.open === 1);
    const asked = oanda.requests.at(-1)!.instruments;
    const covered = t.ctx.market.instruments.list().filter((r) => ['forex', 'commodity', 'index'].includes(r.category));
    expect([...asked].sort()).toEqual(covered.map((r) => r.name).sort());
    oanda.price('XAU_USD', '2651.25', '2651.55');
    await waitFor('gold quote', () => book.get('XAU_USD'));
  });

  it('serves USD rates from the currency API', async () => {
    await setKeys({ currency: 'cur-key' });
    const { m } = build();
    await m.start();
    await waitFor('rates', () => m.usdRates().has('EUR'));
    expect(m.usdRates().get('EUR')).toBe(0.92345);
    expect(m.usdRates().get('USD')).toBe(1);
    // A currency the API did not send keeps the simulated rate; the same map until the API's rates change.
    expect(m.usdRates().get('HKD')).toBe(7.8);
    expect(m.usdRates()).toBe(m.usdRates());
  });

  it("prefers the currency API's HKD rate to the simulated one", async () => {
    const withHkd = await FakeCurrencyApi.start('cur-key', { rates: { USD: 1, EUR: 0.92345, HKD: 7.7712 } });
    try {
      await setKeys({ currency: 'cur-key' });
      const { m } = build({ config: { CURRENCY_API_URL: withHkd.url } });
      await m.start();
      await waitFor('rates', () => m.usdRates().has('EUR'));
      expect(m.usdRates().get('HKD')).toBe(7.7712);
    } finally {
      await withHkd.close();
    }
  });
});
