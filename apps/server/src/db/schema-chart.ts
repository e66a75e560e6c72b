import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import type { ChartPoint, IndicatorConfig } from '@platform/domain';
import { createdAt } from './schema-columns.ts';
import { instruments, users } from './schema-core.ts';

// The trader's chart: drawings per user and instrument, and one set of chart settings (indicators) per user.
// Chart coordinates, not money: the points are JSON numbers, validated by the domain's schemas on the way in.

export const chartDrawings = pgTable(
  'chart_drawings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'cascade' }),
    /** hline, trend or range. */
    kind: varchar('kind', { length: 8 }).notNull(),
    points: jsonb('points').$type<ChartPoint[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chart_drawings_user_instrument_idx').on(t.userId, t.instrumentId),
    check('chart_drawings_kind_check', sql`${t.kind} in ('hline', 'trend', 'range')`),
  ],
);

export const chartSettings = pgTable('chart_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  indicators: jsonb('indicators').$type<IndicatorConfig[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
