import type { pendingOrders } from '../../../db/schema.ts';

export type PendingRow = typeof pendingOrders.$inferSelect;

/**
 * What the pending-order use cases tell the pending-order service after each commit (which tells the other
 * instances over the cluster bus): a waiting order's trigger changed, or it stopped waiting.
 */
export interface PendingHooks {
  /** Placed or changed and still waiting: the row as committed. */
  waiting(row: PendingRow): void;
  /** Filled, cancelled or expired. */
  gone(pendingOrderId: number): void;
}

/** Used until the service is attached (tools that build a context without one). */
export const noPending: PendingHooks = { waiting() {}, gone() {} };
