import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { type AlertDto, type AlertRequest, MAX_ACTIVE_ALERTS, dec } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { priceAlerts, users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import type { AlertRow } from './hooks.ts';

type AlertInput = z.output<typeof AlertRequest>;
type Ctx = Pick<AppContext, 'db' | 'market' | 'realtime' | 'alerts'>;

/** A client's list: every active alert (at most MAX_ACTIVE_ALERTS) and the latest fired ones, up to twice that. */
const LIST_SIZE = MAX_ACTIVE_ALERTS * 2;

const money = (v: string) => dec(v).toFixed();

export const alertDto = (r: AlertRow): AlertDto => ({
  id: r.id,
  instrument: r.instrument,
  side: r.side as AlertDto['side'],
  condition: r.condition as AlertDto['condition'],
  price: money(r.price),
  email: r.email,
  status: r.firedAt ? 'fired' : 'active',
  fired_at: r.firedAt?.toISOString() ?? null,
  fired_price: r.firedPrice === null ? null : money(r.firedPrice),
  created_at: r.createdAt.toISOString(),
});

/** The name a client reads (EUR/USD for EUR_USD). */
export const instrumentLabel = (name: string): string => name.replace('_', '/');

/** GET /dashboard/alerts: active alerts first, then the latest fired; newest first within each. */
export async function listAlerts(db: DbOrTx, userId: number): Promise<AlertDto[]> {
  const rows = await db
    .select()
    .from(priceAlerts)
    .where(eq(priceAlerts.userId, userId))
    .orderBy(sql`${priceAlerts.firedAt} is null desc`, desc(priceAlerts.id))
    .limit(LIST_SIZE);
  return rows.map(alertDto);
}

/**
 * The rules an alert's definition must meet: a known instrument, a price with no more decimals than the instrument
 * quotes (it could never be met exactly otherwise), and not already met by the current price (the alert would fire
 * at once: almost always a mistyped level or a wrong direction).
 */
function checkDefinition(ctx: Ctx, input: AlertInput): InstrumentRow {
  const name = input.instrument;
  const row = ctx.market.instruments.byNameOf(name) ?? ctx.market.instruments.byNameOf(name.replace('/', '_'));
  if (!row) throw fieldError('instrument', `Unknown instrument ${name}.`);
  const label = instrumentLabel(row.name);
  const price = dec(input.price);
  if (price.decimalPlaces() > row.digits)
    throw fieldError('price', `${label} is quoted with ${row.digits} decimals: the price can have at most that many.`);
  const quote = ctx.market.book.get(row.name);
  if (quote) {
    const now = input.side === 'bid' ? quote.bid : quote.ask;
    const shown = now.toFixed(row.digits);
    const side = input.side === 'bid' ? 'bid' : 'ask';
    if (input.condition === 'above' && price.lte(now))
      throw fieldError('price', `The ${side} of ${label} is already ${shown}: an alert above it must be higher.`);
    if (input.condition === 'below' && price.gte(now))
      throw fieldError('price', `The ${side} of ${label} is already ${shown}: an alert below it must be lower.`);
  }
  return row;
}

/** Locks the user's row so two requests cannot both pass the count, then counts their active alerts but one. */
async function assertRoom(tx: DbOrTx, userId: number, except?: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [{ n }] = await tx
    .select({ n: count() })
    .from(priceAlerts)
    .where(
      and(
        eq(priceAlerts.userId, userId),
        isNull(priceAlerts.firedAt),
        except === undefined ? undefined : sql`${priceAlerts.id} <> ${except}`,
      ),
    );
  if (n >= MAX_ACTIVE_ALERTS)
    throw new AppError(
      'VALIDATION',
      `You can have at most ${MAX_ACTIVE_ALERTS} active alerts. Delete one that has not fired to add another.`,
    );
}

/** After a commit: the watchers of every instance, and the user's open screens. */
function announce(ctx: Ctx, userId: number, alertId: number, row: AlertRow | null): void {
  if (row) ctx.alerts.changed(row);
  else ctx.alerts.removed(alertId);
  ctx.realtime.toUser(userId, 'alertsChanged', { alertId, fired: false });
}

/** POST /dashboard/alerts. */
export async function createAlert(ctx: Ctx, userId: number, input: AlertInput): Promise<AlertRow> {
  const instrument = checkDefinition(ctx, input);
  const row = await ctx.db.transaction(async (tx) => {
    await assertRoom(tx, userId);
    const [created] = await tx
      .insert(priceAlerts)
      .values({
        userId,
        instrumentId: instrument.id,
        instrument: instrument.name,
        side: input.side,
        condition: input.condition,
        price: input.price,
        email: input.email,
      })
      .returning();
    return created;
  });
  announce(ctx, userId, row.id, row);
  return row;
}

/**
 * PUT /dashboard/alerts/{id}: a new definition for the alert. A fired alert is re-armed by the edit (it waits for
 * its new level and fires once more), so it counts against the active cap again.
 */
export async function updateAlert(ctx: Ctx, userId: number, id: number, input: AlertInput): Promise<AlertRow> {
  const instrument = checkDefinition(ctx, input);
  const row = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: priceAlerts.id })
      .from(priceAlerts)
      .where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)))
      .for('update');
    if (!current) throw new AppError('NOT_FOUND', 'Alert not found.');
    await assertRoom(tx, userId, id);
    const [updated] = await tx
      .update(priceAlerts)
      .set({
        instrumentId: instrument.id,
        instrument: instrument.name,
        side: input.side,
        condition: input.condition,
        price: input.price,
        email: input.email,
        firedAt: null,
        firedPrice: null,
        updatedAt: new Date(),
      })
      .where(eq(priceAlerts.id, id))
      .returning();
    return updated;
  });
  announce(ctx, userId, row.id, row);
  return row;
}

/** DELETE /dashboard/alerts/{id}: alerts are the client's own reminders, not broker records, so the row goes. */
export async function deleteAlert(ctx: Ctx, userId: number, id: number): Promise<void> {
  const gone = await ctx.db
    .delete(priceAlerts)
    .where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)))
    .returning({ id: priceAlerts.id });
  if (gone.length === 0) throw new AppError('NOT_FOUND', 'Alert not found.');
  announce(ctx, userId, id, null);
}
