import { dec, type OrderDto, type PendingOrderDto } from '@platform/domain';

/** What dragging a line changes: a position's stop-loss or take-profit, or a pending order's price or limit price. */
export type LineTarget =
  | { kind: 'loss' | 'profit'; orderId: number }
  | { kind: 'price' | 'limitPrice'; pendingOrderId: number };

export type LineRole = 'entry' | 'loss' | 'profit' | 'pending';

/** One horizontal line on the chart; `target` makes it draggable. */
export interface ChartLine {
  id: string;
  price: number;
  role: LineRole;
  /** Shown on the line (already translated). */
  title: string;
  target?: LineTarget;
}

export interface LineTexts {
  entry: (o: OrderDto) => string;
  loss: (o: OrderDto) => string;
  profit: (o: OrderDto) => string;
  pending: (o: PendingOrderDto, which: 'price' | 'limitPrice') => string;
}

/**
 * The lines of one instrument: each open position's entry (fixed), stop-loss and take-profit (draggable), and each
 * waiting order's price (and a stop-limit's limit price), draggable. A trailing stop's stop-loss is the server's to
 * move, so it is drawn but not draggable.
 */
export function chartLines(
  symbol: string,
  positions: readonly OrderDto[],
  pending: readonly PendingOrderDto[],
  texts: LineTexts,
): ChartLine[] {
  const lines: ChartLine[] = [];
  for (const o of positions) {
    if (o.instrument !== symbol || o.close_time !== null) continue;
    lines.push({ id: `entry-${o.id}`, price: Number(o.open_rate), role: 'entry', title: texts.entry(o) });
    if (o.loss !== null)
      lines.push({
        id: `loss-${o.id}`,
        price: Number(o.loss),
        role: 'loss',
        title: texts.loss(o),
        target: o.trailing_distance === null ? { kind: 'loss', orderId: o.id } : undefined,
      });
    if (o.profit !== null)
      lines.push({
        id: `profit-${o.id}`,
        price: Number(o.profit),
        role: 'profit',
        title: texts.profit(o),
        target: { kind: 'profit', orderId: o.id },
      });
  }
  for (const p of pending) {
    if (p.instrument !== symbol || p.status !== 'pending') continue;
    lines.push({
      id: `pending-${p.id}`,
      price: Number(p.price),
      role: 'pending',
      title: texts.pending(p, 'price'),
      target: { kind: 'price', pendingOrderId: p.id },
    });
    if (p.limit_price !== null)
      lines.push({
        id: `pending-limit-${p.id}`,
        price: Number(p.limit_price),
        role: 'pending',
        title: texts.pending(p, 'limitPrice'),
        target: { kind: 'limitPrice', pendingOrderId: p.id },
      });
  }
  return lines;
}

/** A dragged price as the API takes it: the instrument's digits (at most 8), no exponent. */
export const dragPrice = (price: number, digits: number): string =>
  dec(price)
    .toDecimalPlaces(Math.min(Math.max(digits, 0), 8))
    .toFixed();
