import { dec, formatOrderTime, type PendingOrderDto, type PendingStatus } from '@platform/domain';
import { formatPrice } from './figures.ts';
import { pendingLabel } from './orderKinds.ts';

/** EUR_USD → EUR/USD, as the positions show base/quote. */
export const instrumentLabel = (name: string): string => name.replace(/_/g, '/');

/** "Buy Limit", "Sell Stop Limit"... (English, a translation key). */
export const pendingTypeLabel = (o: Pick<PendingOrderDto, 'type' | 'order_type'>): string =>
  pendingLabel(o.type, o.order_type);

export const STATUS_COLORS: Record<PendingStatus, string> = {
  pending: 'blue',
  filled: 'green',
  cancelled: 'gray',
  expired: 'yellow',
};
export const STATUS_LABELS: Record<PendingStatus, string> = {
  pending: 'PENDING',
  filled: 'FILLED',
  cancelled: 'CANCELLED',
  expired: 'EXPIRED',
};

/** A rate with the instrument's digits when known, '-' when absent. */
export function rateText(value: string | null, digits: number | undefined): string {
  if (value === null) return '-';
  return digits === undefined ? dec(value).toString() : formatPrice(value, digits);
}

/**
 * How long it waits, as a short English label (a translation key: GTC, Day, Until), its full wording, and the time
 * when it has one.
 */
export function expiryText(o: Pick<PendingOrderDto, 'expiry' | 'expires_at'>): {
  label: string;
  title: string;
  at: string | null;
} {
  if (o.expiry === 'gtc') return { label: 'GTC', title: 'Good till cancelled', at: null };
  const at = o.expires_at ? formatOrderTime(o.expires_at) : null;
  return o.expiry === 'day'
    ? { label: 'Day', title: 'End of day', at }
    : { label: 'Until', title: 'Date and time', at };
}

/** The other order of an OCO pair, whether oco_id names the pair or the partner. */
export function ocoPartner(order: PendingOrderDto, all: readonly PendingOrderDto[]): PendingOrderDto | undefined {
  if (order.oco_id === null) return undefined;
  return all.find((o) => o.id !== order.id && (o.oco_id === order.oco_id || o.id === order.oco_id));
}
