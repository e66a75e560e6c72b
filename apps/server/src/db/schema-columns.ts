import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every table file shares. */
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const money = (name: string) => numeric(name, { precision: 20, scale: 8 });
