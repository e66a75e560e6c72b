import type { z } from 'zod';
import type { OrderCreateRequest } from '@platform/domain';
import type { OrderRow } from '../../engine/hooks.ts';

/** What placing an order takes and answers (place-order.ts, and netting.ts on a netting account). */

/** A pending order's fill: its wallet, and the quote of the tick that triggered it. */
export interface PendingFill {
  pendingOrderId: number;
  walletId: number;
  quote: { bid: string; ask: string };
}

/** Input of a market order: the request's fields a position is opened from. */
export type MarketOrderInput = Pick<
  z.output<typeof OrderCreateRequest>,
  'type' | 'instrument' | 'amount' | 'profit' | 'loss'
>;

/** An order placed: the position opened (or on a netting account the deal), and the OCO partner a fill cancelled. */
export type Placed = { order: OrderRow; ocoCancelledId: number | null };
