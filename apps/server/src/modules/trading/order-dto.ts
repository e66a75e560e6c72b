import type { CloseReason, OrderDto, Side } from '@platform/domain';
import type { OrderRow } from '../../engine/hooks.ts';

/** An order (position or deal) as the client area's calls answer it. */
export function orderDto(o: OrderRow): OrderDto {
  return {
    id: o.id,
    balance_id: o.balanceId,
    created_at: o.createdAt.toISOString(),
    type: o.type as Side,
    instrument: o.instrument,
    base_symbol: o.baseSymbol,
    quote_symbol: o.quoteSymbol,
    kind: o.kind as OrderDto['kind'],
    trade_amount: o.tradeAmount,
    open_rate: o.openRate,
    close_rate: o.closeRate,
    close_time: o.closeTime?.toISOString() ?? null,
    profit: o.takeProfit,
    loss: o.stopLoss,
    spread: o.spread,
    exchange_rate: o.exchangeRate,
    margin_used: o.marginUsed,
    leverage: o.leverage,
    pro_loss: o.proLoss,
    close_reason: (o.closeReason as CloseReason | null) ?? null,
    trailing_distance: o.trailingDistance,
    trailing_step: o.trailingStep,
    partial_of: o.partialOf,
    pending_order_id: o.pendingOrderId,
    swap: o.swap ?? '0',
    commission: o.commission ?? '0',
  };
}
