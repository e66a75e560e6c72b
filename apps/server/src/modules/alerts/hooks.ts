import type { priceAlerts } from '../../db/schema.ts';

export type AlertRow = typeof priceAlerts.$inferSelect;

/** What the alerts service tells the watcher after each commit (which tells the other instances by the bus). */
export interface AlertHooks {
  /** Created or edited (an edit re-arms): the row as committed. */
  changed(row: AlertRow): void;
  removed(alertId: number): void;
}

/** Used until the watcher is attached (tools that build a context without one). */
export const noAlerts: AlertHooks = { changed() {}, removed() {} };
