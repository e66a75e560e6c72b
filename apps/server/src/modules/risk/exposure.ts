import { eq, inArray } from 'drizzle-orm';
import type { ExposureQuery, TopClientsQuery } from '@platform/domain';
import type { ExposureResponse, ExposureRow, TopClientsResponse } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { userProfiles, users } from '../../db/schema.ts';
import type { ClientSums, DeskMode, ExposureFilter, InstrumentSums } from '../../engine/exposure.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { getBranding } from '../settings/service.ts';
import { limitFor, limitsOf } from './limits.ts';
import { netHistoryOf } from './exposure-history.ts';

type Ctx = Pick<AppContext, 'db' | 'risk' | 'market'>;
type Actor = Pick<StaffActor, 'id' | 'roleId'>;

const round = (v: number, places: number) => {
  const f = 10 ** places;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r;
};

/** Small per-database caches the desk reads every second: the site currency and each manager's customers. */
const siteCurrencies = new WeakMap<Db, { at: number; value: Promise<string> }>();
const managerUsers = new WeakMap<Db, Map<number, { at: number; value: Promise<Set<number>> }>>();
const CACHE_MS = 5000;

export function siteCurrency(db: Db): Promise<string> {
  const hit = siteCurrencies.get(db);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = getBranding(db).then((b) => b.appCurrency);
  value.catch(() => siteCurrencies.delete(db));
  siteCurrencies.set(db, { at: Date.now(), value });
  return value;
}

/**
 * Whose positions the caller sees: admins every client's (null), a manager the customers assigned to them (the same
 * rule as customerScope, read once per few seconds rather than per position), anyone else nobody's.
 */
export async function scopeUsers(db: Db, actor: Actor): Promise<ReadonlySet<number> | null> {
  if (actor.roleId === 1) return null;
  if (actor.roleId !== 2) return new Set();
  let byManager = managerUsers.get(db);
  if (!byManager) {
    byManager = new Map();
    managerUsers.set(db, byManager);
  }
  const hit = byManager.get(actor.id);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = db
    .select({ id: userProfiles.userId })
    .from(userProfiles)
    .where(eq(userProfiles.managerId, actor.id))
    .then((rows) => new Set(rows.map((r) => r.id)));
  const map = byManager;
  value.catch(() => map.delete(actor.id));
  byManager.set(actor.id, { at: Date.now(), value });
  return value;
}

/**
 * One scan serves every desk asking within SCAN_MS while no position opened, changed size or closed: the volumes and
 * prices are then exact at the moment of reading, the P/L at most SCAN_MS old. Several staff on the desk cost one scan.
 */
const SCAN_MS = 250;
type Scan = ReturnType<AppContext['risk']['exposure']>;
const scans = new WeakMap<Db, Map<string, { at: number; version: number; scan: Scan }>>();

function scanOf(ctx: Ctx, filter: ExposureFilter, scopeKey: string, currency: string, withClients: boolean): Scan {
  let memo = scans.get(ctx.db);
  if (!memo) {
    memo = new Map();
    scans.set(ctx.db, memo);
  }
  const key = `${filter.mode}|${scopeKey}|${currency}|${withClients}`;
  const version = ctx.risk.exposureVersion();
  const hit = memo.get(key);
  const now = Date.now();
  if (hit && hit.version === version && now - hit.at < SCAN_MS) return hit.scan;
  const scan = ctx.risk.exposure(filter, currency, withClients);
  if (memo.size > 100) memo.clear();
  memo.set(key, { at: now, version, scan });
  return scan;
}

/** The `k` largest by `key`, largest first, without sorting every client (k is at most 50). */
function topK(list: readonly ClientSums[], k: number, key: (c: ClientSums) => number): ClientSums[] {
  const top: ClientSums[] = [];
  const keys: number[] = [];
  for (const c of list) {
    const v = key(c);
    if (top.length === k && (v < keys[k - 1] || (v === keys[k - 1] && c.userId > top[k - 1].userId))) continue;
    let i = top.length;
    while (i > 0 && (keys[i - 1] < v || (keys[i - 1] === v && top[i - 1].userId > c.userId))) i--;
    top.splice(i, 0, c);
    keys.splice(i, 0, v);
    if (top.length > k) {
      top.pop();
      keys.pop();
    }
  }
  return top;
}

function rowOf(ctx: Ctx, s: InstrumentSums, maxNet: number | null, history: number[]): ExposureRow | null {
  const instrument = ctx.market.instruments.byIdOf(s.instrumentId);
  if (!instrument) return null;
  const net = s.longVolume - s.shortVolume;
  return {
    instrument: instrument.name,
    category: instrument.category,
    long_volume: round(s.longVolume, 8),
    short_volume: round(s.shortVolume, 8),
    net_volume: round(net, 8),
    long_avg_price: s.longVolume > 0 ? round(s.longValue / s.longVolume, 8) : null,
    short_avg_price: s.shortVolume > 0 ? round(s.shortValue / s.shortVolume, 8) : null,
    client_floating_pl: round(s.pl, 2),
    positions: s.positions,
    net_history: history.length ? [...history, round(net, 8)] : [round(net, 8)],
    max_net_volume: maxNet,
  };
}

/**
 * GET /admin/risk/exposure: per instrument, the clients' long and short volume, net, average open prices, floating
 * P/L (site currency) and positions, from one pass over the risk engine's columns; the day's net sampled in memory
 * for the sparkline (the whole book's, so admins only); the net limit that applies.
 */
export async function readExposure(
  ctx: Ctx,
  actor: Actor,
  q: z.output<typeof ExposureQuery>,
): Promise<ExposureResponse> {
  const [currency, scope, limits] = await Promise.all([
    siteCurrency(ctx.db),
    scopeUsers(ctx.db, actor),
    limitsOf(ctx.db),
  ]);
  const mode = q.mode as DeskMode;
  const at = Date.now();
  const scopeKey = scope === null ? 'all' : `m${actor.id}`;
  const { instruments } = scanOf(ctx, { mode, users: scope }, scopeKey, currency, false);
  const data: ExposureRow[] = [];
  let pl = 0;
  let positions = 0;
  for (const s of instruments) {
    const instrument = ctx.market.instruments.byIdOf(s.instrumentId);
    if (!instrument || (q.category && instrument.category !== q.category)) continue;
    const history = scope === null ? netHistoryOf(ctx, s.instrumentId, mode) : [];
    const row = rowOf(ctx, s, limitFor(limits, instrument)?.maxNet ?? null, history);
    if (!row) continue;
    data.push(row);
    pl += s.pl;
    positions += s.positions;
  }
  data.sort((a, b) => Math.abs(b.net_volume) - Math.abs(a.net_volume) || a.instrument.localeCompare(b.instrument));
  return { data, totals: { client_floating_pl: round(pl, 2), positions }, currency, at };
}

/** GET /admin/risk/top-clients: clients ranked by floating P/L (their biggest wins first), volume or exposure. */
export async function readTopClients(
  ctx: Ctx,
  actor: Actor,
  q: z.output<typeof TopClientsQuery>,
): Promise<TopClientsResponse> {
  const [currency, scope] = await Promise.all([siteCurrency(ctx.db), scopeUsers(ctx.db, actor)]);
  const scopeKey = scope === null ? 'all' : `m${actor.id}`;
  const { clients } = scanOf(ctx, { mode: q.mode as DeskMode, users: scope }, scopeKey, currency, true);
  const key =
    q.by === 'pl'
      ? (c: ClientSums) => c.pl
      : q.by === 'volume'
        ? (c: ClientSums) => c.volume
        : (c: ClientSums) => Math.abs(c.net);
  const top = topK(clients, q.limit, key);
  const names = new Map<number, { name: string; email: string }>();
  if (top.length) {
    const rows = await ctx.db
      .select({ id: users.id, name: users.fullName, email: users.email })
      .from(users)
      .where(
        inArray(
          users.id,
          top.map((c) => c.userId),
        ),
      );
    for (const r of rows) names.set(r.id, r);
  }
  return {
    currency,
    data: top.map((c) => ({
      user_id: c.userId,
      name: names.get(c.userId)?.name ?? '',
      email: names.get(c.userId)?.email ?? '',
      floating_pl: round(c.pl, 2),
      volume: round(c.volume, 2),
      exposure: round(Math.abs(c.net), 2),
      positions: c.positions,
    })),
  };
}
