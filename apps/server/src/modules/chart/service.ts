import { and, asc, count, eq } from 'drizzle-orm';
import {
  type ChartSettings,
  type DrawingCreateRequest,
  type DrawingDto,
  type DrawingShape,
  IndicatorConfig,
  MAX_DRAWINGS_PER_INSTRUMENT,
  MAX_INDICATORS,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { chartDrawings, chartSettings, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { instrumentBySymbol } from '../../market/service.ts';
import type { Market } from '../../market/types.ts';

type Instruments = Pick<Market, 'instruments'>;
type DrawingRow = typeof chartDrawings.$inferSelect;

const drawingDto = (row: DrawingRow, symbol: string): DrawingDto => ({
  id: row.id,
  symbol,
  kind: row.kind as DrawingDto['kind'],
  points: row.points,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** The name of an instrument id, for the answers (the instrument may have been renamed since the drawing). */
const nameOf = (market: Instruments, id: number): string => market.instruments.byIdOf(id)?.name ?? '';

/** GET /dashboard/chart/drawings?symbol=: the caller's drawings on one instrument, oldest first. */
export async function listDrawings(db: DbOrTx, market: Instruments, userId: number, symbol: string) {
  const instrument = instrumentBySymbol(market, symbol);
  const rows = await db
    .select()
    .from(chartDrawings)
    .where(and(eq(chartDrawings.userId, userId), eq(chartDrawings.instrumentId, instrument.id)))
    .orderBy(asc(chartDrawings.id))
    .limit(MAX_DRAWINGS_PER_INSTRUMENT);
  return rows.map((r) => drawingDto(r, instrument.name));
}

/**
 * POST /dashboard/chart/drawings: a new drawing, refused past the cap per instrument. The user's row is locked so
 * two requests at once cannot both pass the count.
 */
export async function createDrawing(db: DbOrTx, market: Instruments, userId: number, input: DrawingCreateRequest) {
  const instrument = instrumentBySymbol(market, input.symbol);
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ n }] = await tx
      .select({ n: count() })
      .from(chartDrawings)
      .where(and(eq(chartDrawings.userId, userId), eq(chartDrawings.instrumentId, instrument.id)));
    if (n >= MAX_DRAWINGS_PER_INSTRUMENT) throw new AppError('TOO_MANY_DRAWINGS');
    const [created] = await tx
      .insert(chartDrawings)
      .values({ userId, instrumentId: instrument.id, kind: input.kind, points: input.points })
      .returning();
    return created;
  });
  return drawingDto(row, instrument.name);
}

/** PUT /dashboard/chart/drawings/{id}: a new shape for one of the caller's drawings; anyone else's is a 404. */
export async function updateDrawing(db: DbOrTx, market: Instruments, userId: number, id: number, shape: DrawingShape) {
  const [row] = await db
    .update(chartDrawings)
    .set({ kind: shape.kind, points: shape.points, updatedAt: new Date() })
    .where(and(eq(chartDrawings.id, id), eq(chartDrawings.userId, userId)))
    .returning();
  if (!row) throw new AppError('DRAWING_NOT_FOUND');
  return drawingDto(row, nameOf(market, row.instrumentId));
}

/** DELETE /dashboard/chart/drawings/{id}. */
export async function deleteDrawing(db: DbOrTx, userId: number, id: number): Promise<void> {
  const gone = await db
    .delete(chartDrawings)
    .where(and(eq(chartDrawings.id, id), eq(chartDrawings.userId, userId)))
    .returning({ id: chartDrawings.id });
  if (gone.length === 0) throw new AppError('DRAWING_NOT_FOUND');
}

/**
 * GET /dashboard/chart/settings: the caller's indicators (none until they add one). Stored entries are read back
 * through the schema, so one a later version no longer knows is dropped rather than breaking the chart.
 */
export async function chartSettingsOf(db: DbOrTx, userId: number): Promise<ChartSettings> {
  const [row] = await db
    .select({ indicators: chartSettings.indicators })
    .from(chartSettings)
    .where(eq(chartSettings.userId, userId));
  const indicators = (row?.indicators ?? []).flatMap((c) => {
    const parsed = IndicatorConfig.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
  return { indicators: indicators.slice(0, MAX_INDICATORS) };
}

/** PUT /dashboard/chart/settings: replaces the caller's indicators. */
export async function saveChartSettings(db: DbOrTx, userId: number, settings: ChartSettings): Promise<ChartSettings> {
  await db
    .insert(chartSettings)
    .values({ userId, indicators: settings.indicators })
    .onConflictDoUpdate({
      target: chartSettings.userId,
      set: { indicators: settings.indicators, updatedAt: new Date() },
    });
  return { indicators: settings.indicators };
}
