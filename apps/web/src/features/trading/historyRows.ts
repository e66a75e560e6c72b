import type { TFunction } from 'i18next';
import { CLOSE_REASON_LABELS, type HistoryEntry, type Side } from '@platform/domain';
import { formatCharge, formatProfitLoss, pairLabel } from './figures.ts';
import { instrumentLabel, pendingTypeLabel, rateText, STATUS_COLORS, STATUS_LABELS } from './pendingFormat.ts';
import type { AmountFormat, AmountText } from './terminalTables.ts';

/** One line of the History tab, a closed deal or an ended pending order, ready to show. */
export interface HistoryRow {
  key: string;
  /** The deal's or the pending order's id. */
  ticket: number;
  /** When the line entered the history (a deal's close, an order's end): its order in the list. */
  time: string;
  /** A deal's open and close time; a pending order's placing and end. */
  openTime: string;
  closeTime: string | null;
  instrument: string;
  side: Side;
  type: string;
  /** Lots where the category trades in lots, else units. */
  amount: AmountText;
  /** A deal's open and close price; a pending order's price (and limit price), and no close price. */
  openPrice: string;
  closePrice: string;
  /** Both prices in one line, as the phone card shows them. */
  price: string;
  profitLoss: { text: string; color: string | undefined } | null;
  /** A deal's swap and commission (negative: paid), in the wallet's currency; null for a pending order. */
  swap: { text: string; color: string | undefined } | null;
  commission: { text: string; color: string | undefined } | null;
  status: { label: string; color: string };
  detail: string | null;
}

export function historyRow(
  entry: HistoryEntry,
  digitsOf: (instrument: string) => number | undefined,
  currency: string,
  t: TFunction,
  amountText: AmountFormat,
): HistoryRow {
  if (entry.entry === 'deal') {
    const d = entry.deal;
    const digits = digitsOf(d.instrument);
    const reason = d.close_reason && d.close_reason !== 'manual' ? t(CLOSE_REASON_LABELS[d.close_reason]) : null;
    const partial = d.partial_of !== null ? t('Part of position #{{id}}', { id: d.partial_of }) : null;
    const openPrice = rateText(d.open_rate, digits);
    const closePrice = rateText(d.close_rate, digits);
    return {
      key: `deal-${d.id}`,
      ticket: d.id,
      time: entry.time,
      openTime: d.created_at,
      closeTime: d.close_time ?? entry.time,
      instrument: pairLabel(d.base_symbol, d.quote_symbol),
      side: d.type,
      type: d.type === 'buy' ? t('BUY') : t('SELL'),
      amount: amountText(d.trade_amount, d.instrument, d.kind),
      openPrice,
      closePrice,
      price: `${openPrice} → ${closePrice}`,
      profitLoss: formatProfitLoss(d.pro_loss, currency),
      swap: formatCharge(d.swap, currency),
      commission: formatCharge(d.commission, currency),
      status: { label: partial ? t('PARTIAL CLOSE') : t('CLOSED'), color: partial ? 'orange' : 'yellow' },
      detail: [partial, reason].filter(Boolean).join(' · ') || null,
    };
  }
  const o = entry.order;
  const digits = digitsOf(o.instrument);
  const filled =
    o.status === 'filled' && o.fill_price !== null
      ? t('Filled at {{price}}', { price: rateText(o.fill_price, digits) })
      : null;
  const price =
    o.limit_price === null
      ? rateText(o.price, digits)
      : `${rateText(o.price, digits)} / ${rateText(o.limit_price, digits)}`;
  return {
    key: `order-${o.id}`,
    ticket: o.id,
    time: entry.time,
    openTime: o.created_at,
    closeTime: o.closed_at ?? entry.time,
    instrument: instrumentLabel(o.instrument),
    side: o.type,
    type: t(pendingTypeLabel(o)),
    amount: amountText(o.amount, o.instrument, o.kind),
    openPrice: price,
    closePrice: '-',
    price,
    profitLoss: null,
    swap: null,
    commission: null,
    status: { label: t(STATUS_LABELS[o.status]), color: STATUS_COLORS[o.status] },
    detail: [filled, o.reason].filter(Boolean).join(' · ') || null,
  };
}
