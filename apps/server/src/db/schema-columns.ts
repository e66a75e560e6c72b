import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every table file shares. */
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const money = (name: string) => numeric(name, { precision: 20, scale: 8 });

/** Bytes (PGlite hands back a Uint8Array, node-postgres a Buffer; callers always get a Buffer). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
