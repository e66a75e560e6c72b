import type { Market } from '../market/types.ts';
import type { RiskEngine } from './risk-engine.ts';

/**
 * The house's exposure, from what the risk engine already holds. Two parts:
 * - ExposureIndex: who owns each tracked wallet and in which mode, and the clients' net volume per instrument and
 *   mode, kept incrementally as positions open, shrink and close. The order path reads the net (limits) in O(1).
 * - scanExposure: one pass over the engine's position columns summing volumes, open prices and P/L per instrument
 *   (and per client on request) for the exposure desk. A pass over 100,000 positions is well under a millisecond, so
 *   the desk reads the live book on every request instead of keeping a second copy of it.
 */

export type DeskMode = 'real' | 'demo' | 'all';

/** The order fields the index needs (an OrderRow has them). */
export interface ExposureOrder {
  id: number;
  userId: number;
  balanceId: number;
  balanceMode: string;
  instrumentId: number;
  type: string;
  tradeAmount: string;
}

type NetListener = (instrumentId: number, mode: 'real' | 'demo', net: number) => void;

const keyOf = (instrumentId: number, demo: boolean) => instrumentId * 2 + (demo ? 1 : 0);

export class ExposureIndex {
  private readonly owners = new Map<number, { userId: number; demo: boolean }>();
  private readonly positions = new Map<number, { key: number; signed: number }>();
  private readonly net = new Map<number, { sum: number; count: number }>();
  private readonly listeners = new Set<NetListener>();
  /** Bumped by every change of a position (open, resize, close): readers cache a scan while it stays. */
  version = 0;

  opened(o: ExposureOrder): void {
    if (this.positions.has(o.id)) return;
    const demo = o.balanceMode === 'demo';
    this.owners.set(o.balanceId, { userId: o.userId, demo });
    const key = keyOf(o.instrumentId, demo);
    const signed = (o.type === 'sell' ? -1 : 1) * Number(o.tradeAmount);
    this.positions.set(o.id, { key, signed });
    const n = this.net.get(key) ?? { sum: 0, count: 0 };
    n.sum += signed;
    n.count++;
    this.net.set(key, n);
    this.changed(key, n.sum);
  }

  resized(orderId: number, amount: number): void {
    const p = this.positions.get(orderId);
    if (!p) return;
    const signed = Math.sign(p.signed) * amount;
    const n = this.net.get(p.key);
    if (!n) return;
    n.sum += signed - p.signed;
    p.signed = signed;
    this.changed(p.key, n.sum);
  }

  closed(orderId: number): void {
    const p = this.positions.get(orderId);
    if (!p) return;
    this.positions.delete(orderId);
    const n = this.net.get(p.key);
    if (!n) return;
    n.count--;
    // An empty book is exactly flat, whatever the rounding of the sums before.
    n.sum = n.count === 0 ? 0 : n.sum - p.signed;
    this.changed(p.key, n.sum);
  }

  /** The clients' net volume (long − short units) on an instrument in one mode's wallets. */
  netVolume(instrumentId: number, mode: 'real' | 'demo'): number {
    return this.net.get(keyOf(instrumentId, mode === 'demo'))?.sum ?? 0;
  }

  ownerOf(walletId: number): { userId: number; demo: boolean } | undefined {
    return this.owners.get(walletId);
  }

  /** Called after every change of a net (open, resize, close), on every instance that follows the book. */
  onNetChange(fn: NetListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(key: number, net: number): void {
    this.version++;
    if (this.listeners.size === 0) return;
    const instrumentId = Math.floor(key / 2);
    const mode = key % 2 === 1 ? 'demo' : 'real';
    for (const fn of this.listeners) {
      try {
        fn(instrumentId, mode, net);
      } catch (err) {
        console.error('exposure listener failed', err);
      }
    }
  }
}

/** Which positions a scan counts: one mode or both, and optionally only some clients (a manager's). */
export interface ExposureFilter {
  mode: DeskMode;
  users?: ReadonlySet<number> | null;
}

/** Sums of the counted positions of one instrument; P/L in the site currency. */
export interface InstrumentSums {
  instrumentId: number;
  longVolume: number;
  shortVolume: number;
  /** Σ open rate × amount per side (average price = this ÷ volume). */
  longValue: number;
  shortValue: number;
  pl: number;
  positions: number;
}

/** Sums of one client's counted positions, in the site currency. */
export interface ClientSums {
  userId: number;
  pl: number;
  /** Σ |amount × open rate| converted. */
  volume: number;
  /** Σ signed amount × open rate converted (long positive). */
  net: number;
  positions: number;
}

/**
 * The rate from a block's wallet currency to the site currency, for scanExposure: slot 0 (the identity) holds the
 * instrument's quote currency, another slot its wallet currency. Each currency's rate is read once per scan.
 */
export function siteRateOf(
  market: Pick<Market, 'instruments' | 'conversionRate'>,
  walletOfSlot: ReadonlyMap<number, string>,
  siteCurrency: string,
): (convSlot: number, instrumentId: number) => number {
  const rates = new Map<string, number>();
  const toSite = (currency: string): number => {
    let r = rates.get(currency);
    if (r === undefined) {
      const c = currency === siteCurrency ? 1 : market.conversionRate(currency, siteCurrency);
      r = c && c > 0 ? 1 / c : NaN;
      rates.set(currency, r);
    }
    return r;
  };
  return (slot, instrumentId) => {
    const currency = slot === 0 ? market.instruments.byIdOf(instrumentId)?.quote : walletOfSlot.get(slot);
    return currency ? toSite(currency) : NaN;
  };
}

/**
 * One pass over the engine's blocks. `walletRate(convSlot, instrumentId)` converts the block's wallet currency into
 * the site currency (NaN: the rate is unknown, the P/L and notional of the block count as 0 there).
 */
export function scanExposure(
  engine: RiskEngine,
  index: ExposureIndex,
  filter: ExposureFilter,
  walletRate: (convSlot: number, instrumentId: number) => number,
  withClients = false,
): { instruments: InstrumentSums[]; clients: ClientSums[] } {
  const wallets = engine.wallets;
  const nw = wallets.n;
  // Which wallet slots count, and their owner for the per-client sums.
  const include = new Uint8Array(nw);
  const userOf = new Float64Array(nw);
  for (let w = 0; w < nw; w++) {
    const o = index.ownerOf(wallets.id[w]);
    if (!o) continue;
    if (filter.mode === 'real' && o.demo) continue;
    if (filter.mode === 'demo' && !o.demo) continue;
    if (filter.users && !filter.users.has(o.userId)) continue;
    include[w] = 1;
    userOf[w] = o.userId;
  }
  const byInstrument = new Map<number, InstrumentSums>();
  const wPl = withClients ? new Float64Array(nw) : null;
  const wVol = withClients ? new Float64Array(nw) : null;
  const wNet = withClients ? new Float64Array(nw) : null;
  const wCount = withClients ? new Int32Array(nw) : null;
  const { blocks, inverseConversion } = engine.columns();
  for (const b of blocks) {
    if (b.count === 0) continue;
    const rate = walletRate(b.convSlot, b.instrument);
    const r = rate === rate ? rate : 0;
    const inv = inverseConversion[b.convSlot];
    let volume = 0;
    let value = 0;
    let pl = 0;
    let n = 0;
    for (let k = 0; k < b.count; k++) {
      const w = b.wallet[k];
      if (include[w] === 0) continue;
      const amount = b.amount[k];
      volume += amount;
      value += amount * b.open[k];
      pl += b.pl[k];
      n++;
      if (wPl && wVol && wNet && wCount) {
        const notional = amount * b.open[k] * inv * r;
        wPl[w] += b.pl[k] * r;
        wVol[w] += notional;
        wNet[w] += b.sign * notional;
        wCount[w]++;
      }
    }
    if (n === 0) continue;
    let s = byInstrument.get(b.instrument);
    if (!s) {
      s = {
        instrumentId: b.instrument,
        longVolume: 0,
        shortVolume: 0,
        longValue: 0,
        shortValue: 0,
        pl: 0,
        positions: 0,
      };
      byInstrument.set(b.instrument, s);
    }
    if (b.sign > 0) {
      s.longVolume += volume;
      s.longValue += value;
    } else {
      s.shortVolume += volume;
      s.shortValue += value;
    }
    s.pl += pl * r;
    s.positions += n;
  }
  const clients: ClientSums[] = [];
  if (wPl && wVol && wNet && wCount) {
    const byUser = new Map<number, ClientSums>();
    for (let w = 0; w < nw; w++) {
      if (wCount[w] === 0) continue;
      const userId = userOf[w];
      const c = byUser.get(userId) ?? { userId, pl: 0, volume: 0, net: 0, positions: 0 };
      c.pl += wPl[w];
      c.volume += wVol[w];
      c.net += wNet[w];
      c.positions += wCount[w];
      byUser.set(userId, c);
    }
    clients.push(...byUser.values());
  }
  return { instruments: [...byInstrument.values()], clients };
}
