import type { PendingOrderDto, Side } from '@platform/domain';
import type { InstrumentRegistry } from '../../../market/instruments.ts';
import type { PendingRow } from './hooks.ts';

/** A pending order as the client area's calls answer it; its category comes from the instrument registry. */
export function pendingDto(instruments: Pick<InstrumentRegistry, 'byIdOf'>, r: PendingRow): PendingOrderDto {
  // An instrument deleted since keeps its orders' records; they still need a category to answer with.
  const category = instruments.byIdOf(r.instrumentId)?.category ?? 'forex';
  return {
    id: r.id,
    balance_id: r.balanceId,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    type: r.side as Side,
    order_type: r.orderType as PendingOrderDto['order_type'],
    instrument: r.instrument,
    kind: category,
    amount: r.amount,
    price: r.price,
    limit_price: r.limitPrice,
    profit: r.takeProfit,
    loss: r.stopLoss,
    expiry: r.expiry as PendingOrderDto['expiry'],
    expires_at: r.expiresAt?.toISOString() ?? null,
    status: r.status as PendingOrderDto['status'],
    reason: r.reason,
    activated_at: r.activatedAt?.toISOString() ?? null,
    oco_id: r.ocoId,
    order_id: r.orderId,
    fill_price: r.fillPrice,
    closed_at: r.closedAt?.toISOString() ?? null,
  };
}
