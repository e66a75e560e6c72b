import { z } from 'zod';
import { IdParam, MoneyString, PagedQuery, paged, requiredString } from './common.ts';
import {
  CategorySchema,
  ExpiryInput,
  MAX_PRICE,
  OrderDto,
  OrderType,
  PENDING_KINDS,
  decimalInput,
  rateInput,
} from './trading.ts';

/** Pending orders (limit, stop, stop-limit), their history and one-cancels-the-other links. */

export const PENDING_STATUSES = ['pending', 'filled', 'cancelled', 'expired'] as const;
export const PendingStatus = z.enum(PENDING_STATUSES);
export type PendingStatus = z.infer<typeof PendingStatus>;

export const PendingOrderDto = z.object({
  id: z.number().int(),
  balance_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** buy or sell. */
  type: OrderType,
  order_type: z.enum(PENDING_KINDS),
  instrument: z.string(),
  kind: CategorySchema,
  amount: MoneyString,
  /** The limit price (limit) or the stop price (stop, stop_limit). */
  price: MoneyString,
  limit_price: MoneyString.nullable(),
  profit: MoneyString.nullable(),
  loss: MoneyString.nullable(),
  /** gtc, day or date; expires_at is the instant a day or date order expires. */
  expiry: z.enum(['gtc', 'day', 'date']),
  expires_at: z.string().nullable(),
  status: PendingStatus,
  /** Why it was cancelled or expired, or how it filled. */
  reason: z.string().nullable(),
  /** When a stop-limit's stop price was crossed and its limit started waiting. */
  activated_at: z.string().nullable(),
  oco_id: z.number().int().nullable(),
  /** The position a fill opened, and its price. */
  order_id: z.number().int().nullable(),
  fill_price: MoneyString.nullable(),
  closed_at: z.string().nullable(),
});
export type PendingOrderDto = z.infer<typeof PendingOrderDto>;

/** POST /dashboard/orders with a pending orderType answers 201 with the pending order and a message. */
export const PendingOrderResponse = PendingOrderDto.extend({ message: z.string() });
export type PendingOrderResponse = z.infer<typeof PendingOrderResponse>;

export const PendingOrdersResponse = z.object({ data: z.array(PendingOrderDto) });
export type PendingOrdersResponse = z.infer<typeof PendingOrdersResponse>;

/** PUT /dashboard/pending-orders/{id}: any of price, limitPrice, profit, loss (null removes), expiry. */
export const PendingOrderUpdateRequest = z
  .object({
    price: decimalInput('Enter the order price', MAX_PRICE).optional(),
    limitPrice: decimalInput('Enter the limit price', MAX_PRICE).optional(),
    profit: rateInput.optional(),
    loss: rateInput.optional(),
    expiry: ExpiryInput.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type PendingOrderUpdateRequest = z.input<typeof PendingOrderUpdateRequest>;

/** POST /dashboard/pending-orders/oco: links two pending orders of one wallet. */
export const OcoRequest = z.object({
  ids: z
    .array(IdParam.shape.id, { error: 'Choose two pending orders' })
    .length(2, { error: 'Choose two pending orders' })
    .refine(([a, b]) => a !== b, { error: 'Choose two different pending orders' }),
});
export type OcoRequest = z.input<typeof OcoRequest>;
export const OcoResponse = z.object({ message: z.string(), data: z.array(PendingOrderDto) });

/** Staff cancel a pending order with a reason (audited). */
export const PendingCancelRequest = z.object({ reason: requiredString('Enter a reason', 500) });
export type PendingCancelRequest = z.input<typeof PendingCancelRequest>;

/**
 * GET /dashboard/orders/history: closed deals (partial closes included) and pending orders that filled, were cancelled
 * or expired, newest first, as one list.
 */
export const HistoryQuery = PagedQuery;
export const HistoryEntry = z.discriminatedUnion('entry', [
  z.object({ entry: z.literal('deal'), time: z.string(), deal: OrderDto }),
  z.object({ entry: z.literal('order'), time: z.string(), order: PendingOrderDto }),
]);
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export const HistoryResponse = paged(HistoryEntry);
export type HistoryResponse = z.infer<typeof HistoryResponse>;

/** Back office: every pending order, filtered by customer and status. */
export const AdminPendingQuery = PagedQuery.extend({
  status: PendingStatus.optional(),
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const AdminPendingDto = PendingOrderDto.extend({
  user: z.object({ id: z.number().int(), email: z.string() }),
  balance: z.object({ mode: z.string(), currency: z.string() }),
});
export type AdminPendingDto = z.infer<typeof AdminPendingDto>;
export const AdminPendingListResponse = paged(AdminPendingDto);
