import { and, eq } from 'drizzle-orm';
import type {
  Category,
  RiskLimitDto,
  RiskLimitInput,
  RiskLimitsByTarget,
  RiskLimitsResponse,
  RiskLimitsUpdate,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { riskLimits } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { InstrumentRow } from '../../market/instruments.ts';

type Limit = z.output<typeof RiskLimitInput>;
interface Held {
  maxNet: number | null;
  maxPosition: number | null;
  warnPercent: number;
}
interface LimitSet {
  byInstrument: Map<string, Held>;
  byCategory: Map<string, Held>;
  rows: RiskLimitDto[];
}

/** The cluster message that tells the other instances to read the limits again. */
export const LIMITS_CHANGED = { kind: 'risk-limits' } as const;

/**
 * The limits as every instance holds them: read once per database (lazily, then after each change here or on
 * another instance), so the order path checks them without a query. Keyed by the database like the trading memory,
 * so test apps in one process never share them.
 */
const held = new WeakMap<Db, Promise<LimitSet>>();

/**
 * Units already checked and not yet committed per (instrument, mode): two orders placed at once on this instance
 * cannot both pass against the same net. Instances do not share this (see docs/decisions.md).
 */
const reserved = new WeakMap<Db, Map<string, number>>();

async function read(db: Db): Promise<LimitSet> {
  const rows = await db.select().from(riskLimits).orderBy(riskLimits.scope, riskLimits.target);
  const set: LimitSet = { byInstrument: new Map(), byCategory: new Map(), rows: [] };
  for (const r of rows) {
    const h: Held = {
      maxNet: r.maxNetVolume === null ? null : Number(r.maxNetVolume),
      maxPosition: r.maxPositionVolume === null ? null : Number(r.maxPositionVolume),
      warnPercent: r.warnPercent,
    };
    (r.scope === 'instrument' ? set.byInstrument : set.byCategory).set(r.target, h);
    set.rows.push({
      instrument: r.scope === 'instrument' ? r.target : null,
      category: r.scope === 'category' ? r.target : null,
      maxNetVolume: h.maxNet,
      maxPositionVolume: h.maxPosition,
      warnPercent: h.warnPercent,
    });
  }
  return set;
}

export function limitsOf(db: Db): Promise<LimitSet> {
  let p = held.get(db);
  if (!p) {
    p = read(db);
    held.set(db, p);
    // A failed read is tried again by the next caller.
    p.catch(() => held.delete(db));
  }
  return p;
}

/** Reads the limits again on this instance (a change here, or one announced by another instance). */
export function reloadLimitsHere(db: Db): Promise<LimitSet> {
  held.delete(db);
  return limitsOf(db);
}

/** Reads the limits again whenever another instance says they changed; returns the unsubscribe. */
export function followLimitChanges(ctx: Pick<AppContext, 'db' | 'cluster'>): () => void {
  return ctx.cluster.bus.subscribe('cache', (m) => {
    if ((m as { kind?: string } | null)?.kind === LIMITS_CHANGED.kind)
      reloadLimitsHere(ctx.db).catch((err: unknown) => console.error('reloading the risk limits failed', err));
  });
}

/** The limits that apply to an instrument: its own, else its category's, else none. */
export function limitFor(set: LimitSet, instrument: Pick<InstrumentRow, 'name' | 'category'>): Held | null {
  return set.byInstrument.get(instrument.name) ?? set.byCategory.get(instrument.category) ?? null;
}

const units = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 8 });

/** A refusal by a dealer's limit: a 400 with the reason (a pending order refused by one is cancelled). */
export class LimitRefusal extends AppError {
  constructor(message: string) {
    super('VALIDATION', message, { amount: message });
  }
}

export interface LimitedOrder {
  instrument: Pick<InstrumentRow, 'id' | 'name' | 'category'>;
  mode: string;
  side: 'buy' | 'sell';
  amount: number;
}

/**
 * The order path's check, before anything is written: an order larger than the position limit, or one that takes
 * the clients' net volume on the instrument (in the order's wallet mode) beyond the net limit, is refused with a 400.
 * An order that reduces the net is always allowed. Returns the release of the units it reserved: call it once the
 * order is committed (the engine then counts it) or refused.
 */
export async function reserveWithinLimits(ctx: Pick<AppContext, 'db' | 'risk'>, o: LimitedOrder): Promise<() => void> {
  return reserveIn(await limitsOf(ctx.db), ctx, o);
}

const NOTHING = () => undefined;

/** reserveWithinLimits with the limits already read (a batch of fills reads them once). */
export function reserveIn(set: LimitSet, ctx: Pick<AppContext, 'db' | 'risk'>, o: LimitedOrder): () => void {
  const limit = limitFor(set, o.instrument);
  if (!limit) return NOTHING;
  const name = o.instrument.name.replace('_', '/');
  if (limit.maxPosition !== null && o.amount > limit.maxPosition) {
    throw new LimitRefusal(
      `The amount exceeds the dealer's limit of ${units(limit.maxPosition)} per position on ${name}.`,
    );
  }
  if (limit.maxNet === null) return NOTHING;
  const mode = o.mode === 'demo' ? 'demo' : 'real';
  const key = `${o.instrument.id}:${mode}`;
  let inFlight = reserved.get(ctx.db);
  if (!inFlight) {
    inFlight = new Map();
    reserved.set(ctx.db, inFlight);
  }
  const delta = (o.side === 'sell' ? -1 : 1) * o.amount;
  const before = ctx.risk.netVolume(o.instrument.id, mode) + (inFlight.get(key) ?? 0);
  const after = before + delta;
  // A hair of tolerance: the net is a sum of doubles, the limit a decimal.
  if (Math.abs(after) > limit.maxNet * (1 + 1e-12) && Math.abs(after) > Math.abs(before)) {
    const room = Math.max(0, limit.maxNet - Math.sign(delta) * before);
    throw new LimitRefusal(
      `The order would take the house's net exposure on ${name} beyond its limit of ${units(limit.maxNet)}; at most ${units(room)} can be ${o.side === 'buy' ? 'bought' : 'sold'} now.`,
    );
  }
  const pool = inFlight;
  pool.set(key, (pool.get(key) ?? 0) + delta);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (pool.get(key) ?? 0) - delta;
    if (Math.abs(left) < 1e-9) pool.delete(key);
    else pool.set(key, left);
  };
}

export async function listLimits(db: Db): Promise<RiskLimitsResponse> {
  return responseOf((await limitsOf(db)).rows);
}

/** The list, and the same limits keyed by instrument and by category. */
export function responseOf(rows: RiskLimitDto[], message?: string): RiskLimitsResponse {
  const instruments: RiskLimitsResponse['instruments'] = {};
  const categories: RiskLimitsResponse['categories'] = {};
  for (const r of rows) {
    const figures = {
      maxNetVolume: r.maxNetVolume,
      maxPositionVolume: r.maxPositionVolume,
      warnPercent: r.warnPercent,
    };
    if (r.instrument) instruments[r.instrument] = figures;
    else if (r.category) categories[r.category] = figures;
  }
  return { data: rows, instruments, categories, ...(message ? { message } : {}) };
}

/** Whether a PUT replaces the whole set, and its limits as one list, whichever of its shapes it came in. */
function limitsOfUpdate(body: z.output<typeof RiskLimitsUpdate>): { whole: boolean; list: Limit[] } {
  if (Array.isArray(body)) return { whole: true, list: body };
  if ('limits' in body) return { whole: true, list: body.limits };
  if ('instruments' in body || 'categories' in body) {
    const keyed = body as z.output<typeof RiskLimitsByTarget>;
    const list: Limit[] = [
      ...Object.entries(keyed.instruments ?? {}).map(([instrument, f]) => ({ ...f, instrument })),
      ...Object.entries(keyed.categories ?? {}).map(([category, f]) => ({ ...f, category: category as Category })),
    ];
    return { whole: true, list };
  }
  return { whole: false, list: [body as Limit] };
}

/**
 * PUT /admin/risk/limits: the whole set (`{limits}`) or one limit (both maxima null removes it). Unknown instruments
 * are a 400 and nothing changes. Audited; every instance reloads.
 */
export async function updateLimits(
  ctx: Pick<AppContext, 'db' | 'market' | 'cluster'>,
  actor: { id: number; ip: string },
  body: z.output<typeof RiskLimitsUpdate>,
): Promise<RiskLimitDto[]> {
  const { whole, list } = limitsOfUpdate(body);
  const seen = new Set<string>();
  list.forEach((l, i) => {
    const field = whole ? `limits.${i}.instrument` : 'instrument';
    if (l.instrument && !ctx.market.instruments.byNameOf(l.instrument)) {
      throw new AppError('VALIDATION', `Unknown instrument ${l.instrument}`, { [field]: 'Unknown instrument' });
    }
    const key = l.instrument ? `i:${l.instrument}` : `c:${l.category}`;
    if (seen.has(key)) throw new AppError('VALIDATION', 'A limit is given twice', { [field]: 'Given twice' });
    seen.add(key);
  });
  const before = await listLimits(ctx.db);
  await ctx.db.transaction(async (tx) => {
    if (whole) await tx.delete(riskLimits);
    for (const l of list) {
      const scope = l.instrument ? 'instrument' : 'category';
      const target = (l.instrument ?? l.category) as string;
      if (l.maxNetVolume === null && l.maxPositionVolume === null) {
        if (!whole) {
          await tx.delete(riskLimits).where(and(eq(riskLimits.scope, scope), eq(riskLimits.target, target)));
        }
        continue;
      }
      const values = {
        maxNetVolume: l.maxNetVolume === null ? null : String(l.maxNetVolume),
        maxPositionVolume: l.maxPositionVolume === null ? null : String(l.maxPositionVolume),
        warnPercent: l.warnPercent,
        updatedBy: actor.id,
        updatedAt: new Date(),
      };
      await tx
        .insert(riskLimits)
        .values({ scope, target, ...values })
        .onConflictDoUpdate({ target: [riskLimits.scope, riskLimits.target], set: values });
    }
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'risk.limits_update',
      before: { limits: before },
      after: { limits: list },
      ip: actor.ip,
      subjectType: 'risk_limits',
    });
  });
  const set = await reloadLimitsHere(ctx.db);
  ctx.cluster.bus.publish('cache', LIMITS_CHANGED);
  return set.rows;
}
