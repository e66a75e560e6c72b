import { z } from 'zod';
import { CANDLE_INTERVALS, CATEGORIES, CHART_INTERVALS, CLOSE_REASONS, type Category } from '../trading.ts';
import {
  IdParam,
  MoneyString,
  PagedQuery,
  UNSAFE_TEXT_MESSAGE,
  isSafeText,
  paged,
  parseIsoDate,
  requiredString,
} from './common.ts';

/**
 * Payloads of the trading dashboard and statements (client-area spec §3, §7). Money and rates of orders travel
 * as decimal strings; streaming prices (instrument lists, priceUpdate, candles) as JSON numbers for the charts.
 */

export const CategorySchema = z.enum(CATEGORIES);
export type CategoryName = Category;

export const OrderType = z.enum(['buy', 'sell']);

export const CloseReason = z.enum(CLOSE_REASONS);
export type CloseReason = z.infer<typeof CloseReason>;

/** One instrument as the dashboard lists it, with its current quote (null before the first tick). */
export const InstrumentDto = z.object({
  id: z.number().int(),
  name: z.string(),
  base: z.string(),
  quote: z.string(),
  alias: z.string().nullable(),
  category: CategorySchema,
  tradable: z.boolean(),
  tradingview: z.string(),
  leverage: z.number().int(),
  swap: z.string(),
  /** Percent a year of a long / short position's opening value added at each rollover (negative: charged). */
  swap_long: z.string(),
  swap_short: z.string(),
  swapLong: z.string(),
  swapShort: z.string(),
  digits: z.number().int(),
  /** Units in one lot: the instrument's own contract size, else its category's default. */
  contract_size: z.string().optional(),
  bids: z.number().nullable(),
  asks: z.number().nullable(),
  closeoutBid: z.number().nullable(),
  closeoutAsk: z.number().nullable(),
});
export type InstrumentDto = z.infer<typeof InstrumentDto>;

/** One changed instrument inside a `priceUpdate` batch. */
export const PriceTick = z.object({
  name: z.string(),
  bids: z.number(),
  asks: z.number(),
  closeoutBid: z.number(),
  closeoutAsk: z.number(),
  time: z.number().int(),
});
export type PriceTick = z.infer<typeof PriceTick>;

export const MarketState = z.enum(['open', 'closed']);
/**
 * Market status (spec §3): forex status also covers commodities and indices. `nextOpen` says when a closed market
 * opens again (ISO instant; null when it is pinned closed), so screens can show it in the user's local time.
 */
export const MarketStatus = z.object({
  fx: MarketState,
  stock: MarketState,
  crypto: MarketState,
  nextOpen: z.object({ fx: z.string().nullable(), stock: z.string().nullable() }).optional(),
});
export type MarketStatus = z.infer<typeof MarketStatus>;

/** Provider health for the API status screen (back-office spec). */
export const HEARTBEAT_APIS = ['polygonForex', 'polygonCrypto', 'eodStock', 'oandaRest'] as const;
export const Heartbeat = z.object({ api: z.enum(HEARTBEAT_APIS), success: z.boolean(), msg: z.string() });
export type Heartbeat = z.infer<typeof Heartbeat>;

/** GET /admin/api-status: the API Status screen's rows before live heartbeats arrive, and the currency quota. */
export const ApiStatusResponse = z.object({
  heartbeats: z.array(Heartbeat),
  currency: z.object({ used: z.number().int(), total: z.number().int() }),
  /** Providers that price at least one category now (they have a key); the others leave it to the simulated feed. */
  configured: z.array(z.enum(HEARTBEAT_APIS)),
  /** The simulated feed's own heartbeat: the categories it prices and when it last moved a price. */
  simulated: z.object({
    categories: z.array(z.enum(CATEGORIES)),
    instruments: z.number().int(),
    lastTickAt: z.string().nullable(),
  }),
});
export type ApiStatusResponse = z.infer<typeof ApiStatusResponse>;

export const CandleInterval = z.enum(CANDLE_INTERVALS);
export type CandleInterval = z.infer<typeof CandleInterval>;
export const CandlesQuery = z.object({
  symbol: requiredString('Symbol is required', 40),
  interval: z.enum(CHART_INTERVALS, { error: 'Unknown interval' }).default('1d'),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
});
/** time = bar start in Unix seconds (UTC), as lightweight-charts expects. */
export const Candle = z.object({
  time: z.number().int(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
});
export type Candle = z.infer<typeof Candle>;

/**
 * Largest order size in units, and largest price or rate: far above any real trade or quote, and well inside the
 * NUMERIC(20,8) columns that store them, so an absurd number is a 400 rather than a database overflow.
 */
export const MAX_ORDER_AMOUNT = 1_000_000_000;
export const MAX_PRICE = 1_000_000_000;

/** A number or decimal string from a form, kept as an exact decimal string, at most `max`. */
export const decimalInput = (required: string, max: number) =>
  z
    .union([z.number({ error: required }), z.string({ error: required })], { error: required })
    .transform((v) => (typeof v === 'number' ? v.toString() : v.trim()))
    .pipe(
      z
        .string()
        .regex(/^\d+(\.\d{1,8})?$/, { error: 'Enter a positive number with at most 8 decimals' })
        .refine((s) => Number(s) <= max, { error: `Must be at most ${max}` }),
    );

export const rateInput = decimalInput('Enter a rate', MAX_PRICE).nullable();

/** Market orders fill now at the server's price; the three pending kinds wait on the server for their price. */
export const ORDER_KINDS = ['market', 'limit', 'stop', 'stop_limit'] as const;
export const OrderKind = z.enum(ORDER_KINDS, { error: 'Unknown order type' });
export type OrderKind = z.infer<typeof OrderKind>;
export const PENDING_KINDS = ['limit', 'stop', 'stop_limit'] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

/** How long a pending order waits: good till cancelled, the instrument's trading day, or an ISO date-time. */
export const ExpiryInput = z.union(
  [z.enum(['gtc', 'day']), z.iso.datetime({ offset: true, error: 'Use gtc, day or an ISO date and time' })],
  { error: 'Use gtc, day or an ISO date and time' },
);
export type ExpiryInput = z.infer<typeof ExpiryInput>;

/**
 * POST /dashboard/orders. A market order (no orderType, or `market`) never sends a price: the server fills at its own
 * quote. A pending order (limit, stop, stop_limit) sends its `price` (and a stop-limit its `limitPrice`) and an expiry.
 */
export const OrderCreateRequest = z
  .object({
    type: OrderType,
    instrument: requiredString('Instrument is required', 40),
    amount: decimalInput('Amount is required', MAX_ORDER_AMOUNT),
    profit: rateInput.optional().default(null),
    loss: rateInput.optional().default(null),
    orderType: OrderKind.optional().default('market'),
    price: decimalInput('Enter the order price', MAX_PRICE).optional(),
    limitPrice: decimalInput('Enter the limit price', MAX_PRICE).optional(),
    expiry: ExpiryInput.optional().default('gtc'),
  })
  .superRefine((v, ctx) => {
    if (v.orderType === 'market') return;
    if (v.price === undefined || Number(v.price) <= 0)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'Enter the order price' });
    if (v.orderType === 'stop_limit' && (v.limitPrice === undefined || Number(v.limitPrice) <= 0))
      ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: 'Enter the limit price' });
    if (v.orderType !== 'stop_limit' && v.limitPrice !== undefined)
      ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: 'Only a stop-limit order has a limit price' });
  });
export type OrderCreateRequest = z.input<typeof OrderCreateRequest>;

export const OrderCloseRequest = z.object({
  orderId: z.coerce
    .number({ error: 'Order is required' })
    .int()
    .positive({ error: 'Order is required' })
    .max(2_147_483_647),
  instrument: z.string().trim().max(40).refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE }).optional(),
  /** A partial close: the part of the position's amount to close (the whole position when absent). */
  amount: decimalInput('Enter the amount to close', MAX_ORDER_AMOUNT).optional(),
});
export type OrderCloseRequest = z.input<typeof OrderCloseRequest>;

/** A trailing stop: the stop-loss follows the price at `distance` (in price), moving in steps of at least `step`. */
export const TrailingInput = z.object({
  distance: decimalInput('Enter the trailing distance', MAX_PRICE).refine((s) => Number(s) > 0, {
    error: 'The trailing distance must be above zero',
  }),
  step: decimalInput('Enter the trailing step', MAX_PRICE).optional().default('0'),
});
export type TrailingInput = z.input<typeof TrailingInput>;

/**
 * PUT /dashboard/orders/{id}: a new stop-loss (`loss`) and/or take-profit (`profit`), null removes it; `trailing`
 * sets a trailing stop, null removes it.
 */
export const OrderUpdateRequest = z
  .object({ profit: rateInput.optional(), loss: rateInput.optional(), trailing: TrailingInput.nullable().optional() })
  .refine((v) => v.profit !== undefined || v.loss !== undefined || v.trailing !== undefined, {
    error: 'Nothing to change',
  });
export type OrderUpdateRequest = z.input<typeof OrderUpdateRequest>;

export const OrderDto = z.object({
  id: z.number().int(),
  balance_id: z.number().int(),
  created_at: z.string(),
  type: OrderType,
  instrument: z.string(),
  base_symbol: z.string(),
  quote_symbol: z.string(),
  kind: CategorySchema,
  trade_amount: MoneyString,
  open_rate: MoneyString,
  close_rate: MoneyString.nullable(),
  close_time: z.string().nullable(),
  /** Take-profit rate. */
  profit: MoneyString.nullable(),
  /** Stop-loss rate. */
  loss: MoneyString.nullable(),
  /** Spread cost in the quote currency, charged on close. */
  spread: MoneyString,
  /** Quote-currency units per unit of the wallet currency at open. */
  exchange_rate: MoneyString,
  margin_used: MoneyString,
  leverage: z.number().int(),
  /** Realised profit or loss in the wallet currency once closed. */
  pro_loss: MoneyString.nullable(),
  close_reason: CloseReason.nullable(),
  /** The trailing stop's distance and step in price, or null without one. */
  trailing_distance: MoneyString.nullable(),
  trailing_step: MoneyString.nullable(),
  /** A partial close's closed part names the position it was cut from. */
  partial_of: z.number().int().nullable(),
  /** The pending order whose fill opened the position. */
  pending_order_id: z.number().int().nullable(),
  /** Swap added to the wallet at the rollovers so far (negative: charged), in the wallet currency. */
  swap: MoneyString,
  /** Commission added to the wallet for this deal (negative: charged), in the wallet currency. */
  commission: MoneyString,
});
export type OrderDto = z.infer<typeof OrderDto>;

/** GET /dashboard/orders: `status=open` lists every open position of the active wallet; `all` is paged. */
export const OrdersQuery = PagedQuery.extend({ status: z.enum(['all', 'open', 'closed']).default('all') });
export const OrdersResponse = paged(OrderDto);
export type OrdersResponse = z.infer<typeof OrdersResponse>;

export const OrderResponse = z.object({ message: z.string(), order: OrderDto });
export type OrderResponse = z.infer<typeof OrderResponse>;

export const FavoriteRequest = z.object({
  id: z.coerce.number({ error: 'Instrument is required' }).int().positive().max(2_147_483_647),
});
/** A favourite: list_id is the instrument's id. */
export const FavoriteDto = z.object({ id: z.number().int(), list_id: z.number().int(), name: z.string() });
export type FavoriteDto = z.infer<typeof FavoriteDto>;

/** A currency or asset code as instruments name them (USD, JPY, BTC, USDT, XAU...). */
export const RatesQuery = z.object({
  quote: z
    .string({ error: 'Quote currency is required' })
    .trim()
    .min(1, { error: 'Quote currency is required' })
    .max(20, { error: 'Unknown currency' })
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9.-]*$/, { error: 'Unknown currency' }),
});
/** Quote-currency units per unit of the active wallet's currency. */
export const RateResponse = z.object({ rate: MoneyString, base: z.string(), quote: z.string() });
export type RateResponse = z.infer<typeof RateResponse>;

export const LOT_STATES = ['lot', 'amount'] as const;
export const LotOption = z.object({ label: z.string(), value: z.number().positive() });
export type LotOption = z.infer<typeof LotOption>;
/**
 * GET /dashboard/lot-state/{category}[?instrument=]: the mode and the presets, each value in units of the instrument
 * named (else of the category's default contract), with `lots` the size in lots and `contractSize` the units in one.
 */
export const LotStateResponse = z.object({
  lotState: z.enum(LOT_STATES),
  lotSelector: z.array(LotOption.extend({ lots: z.number().optional() })),
  contractSize: z.string().optional(),
});
export type LotStateResponse = z.infer<typeof LotStateResponse>;

/**
 * GET /statements/history and /statements/export: closed trades of one of the caller's wallets (walletId; the active
 * wallet when absent), optional date range of real calendar dates between 1970 and 2100.
 */
const dateParam = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Use the date format YYYY-MM-DD' })
  .refine((s) => parseIsoDate(s) !== null && s >= '1970-01-01' && s <= '2100-12-31', {
    error: 'Enter a real date between 1970-01-01 and 2100-12-31',
  })
  .optional()
  .or(z.literal('').transform(() => undefined));
export const StatementsQuery = PagedQuery.extend({
  dateStart: dateParam,
  dateEnd: dateParam,
  walletId: z
    .literal('')
    .transform(() => undefined)
    .or(IdParam.shape.id)
    .optional(),
  /** The export's file: CSV of the closed trades (the spec's), or the account statement as PDF or XLSX. */
  format: z.enum(['csv', 'xlsx', 'pdf'], { error: 'Use the format csv, xlsx or pdf' }).default('csv'),
});
export const StatementDto = z.object({
  id: z.number().int(),
  created_at: z.string(),
  close_time: z.string(),
  instrument: z.string(),
  type: OrderType,
  trade_amount: MoneyString,
  open_rate: MoneyString,
  close_rate: MoneyString,
  spread: MoneyString,
  pro_loss: MoneyString,
  status: z.string(),
  close_reason: CloseReason,
  /** A partial close's closed part names the position it was cut from (which shows too, once closed). */
  partial_of: z.number().int().nullable().optional(),
});
export type StatementDto = z.infer<typeof StatementDto>;
export const StatementsResponse = paged(StatementDto);
export type StatementsResponse = z.infer<typeof StatementsResponse>;

/** Events the server pushes over Socket.IO; one map shared by both sides. */
export interface ServerEvents {
  priceUpdate: (ticks: PriceTick[]) => void;
  marketStatus: (status: MarketStatus) => void;
  heartbeat: (beat: Heartbeat) => void;
  /** Open positions or the wallet changed (order placed, closed, modified, or closed by the risk engine). */
  ordersChanged: (change: {
    balanceId: number;
    orderId: number;
    reason: CloseReason | 'opened' | 'modified' | 'partial';
  }) => void;
  /** A pending order of the wallet was placed, changed, filled, cancelled or expired. */
  pendingOrdersChanged: (change: { balanceId: number; pendingOrderId: number; status: string }) => void;
  /** The user's price alerts changed (created, edited, deleted or fired). */
  alertsChanged: (change: { alertId: number; fired: boolean }) => void;
  /** Staff added, edited or deleted an instrument: dashboards reload the catalogue (tradability, names, new rows). */
  instrumentsChanged: (change: { at: number }) => void;
  /** A wallet's margin call fired (its level fell to the plan's margin-call level) or re-armed once it recovered. */
  marginCall: (change: { balanceId: number; marginLevel?: number; called: boolean }) => void;
}

/** Back-office trades (spec §2 "Trades", §3 Trade): lists, the admin close, the Edit Order modal. */
export const ADMIN_TRADE_LISTS = ['all', 'open', 'closed'] as const;
export const AdminTradeListParams = z.object({ type: z.enum(ADMIN_TRADE_LISTS, { error: 'Unknown list' }) });
export const AdminTradeUserParams = AdminTradeListParams.extend({
  userId: z.coerce.number().int().positive({ error: 'Invalid id' }).max(2_147_483_647, { error: 'Invalid id' }),
});
export const AdminTradeDto = z.object({
  id: z.number(),
  user: z.object({ id: z.number(), email: z.string() }),
  balance: z.object({ mode: z.string(), currency: z.string() }),
  type: z.string(),
  instrument: z.string(),
  trade_amount: z.string(),
  open_rate: z.string(),
  close_rate: z.string().nullable(),
  spread: z.string(),
  margin_used: z.string(),
  pro_loss: z.string().nullable(),
  /** Swap and commission added to the wallet for this trade so far (negative: charged). */
  swap: z.string(),
  commission: z.string(),
  /**
   * An open trade's floating P/L in its wallet's currency at the last price, as the risk engine holds it (8
   * decimals); null for a closed trade or before the engine has priced it. Live updates: TRADE_PL_EVENT.
   */
  live_pl: z.string().nullable(),
  profit: z.string().nullable(),
  loss: z.string().nullable(),
  leverage: z.number(),
  created_at: z.string(),
  close_time: z.string().nullable(),
});
export type AdminTradeDto = z.infer<typeof AdminTradeDto>;
/**
 * Live floating P/L of the open trades a back-office list shows, over the realtime channel: staff emit
 * TRADE_PL_WATCH {ids} (acknowledged with {ok, ids}: the ones they may see, open, at most 100) and get TRADE_PL_EVENT
 * {pl: {id: decimal | null}} each second the figures move, until TRADE_PL_UNWATCH or another watch.
 */
export const TRADE_PL_WATCH = 'trades:watch';
export const TRADE_PL_UNWATCH = 'trades:unwatch';
export const TRADE_PL_EVENT = 'trades:pl';
export const TRADE_PL_WATCH_MAX = 100;
export const TradePlWatch = z.object({
  ids: z.array(z.number().int().positive().max(2_147_483_647)).max(TRADE_PL_WATCH_MAX),
});
export type TradePlWatch = z.infer<typeof TradePlWatch>;
export const TradePlEvent = z.object({ pl: z.record(z.string(), z.string().nullable()) });
export type TradePlEvent = z.infer<typeof TradePlEvent>;
export const AdminTradeListResponse = paged(AdminTradeDto);
export const AdminTradeCloseRequest = OrderCloseRequest;
/** PUT /admin/trades/{id}: every field optional; the close rate only for closed trades. */
export const AdminTradeUpdateRequest = z.object({
  openRate: decimalInput('Enter a rate', MAX_PRICE).optional(),
  closeRate: decimalInput('Enter a rate', MAX_PRICE).optional().nullable(),
  spread: decimalInput('Enter the spread', MAX_PRICE).optional(),
  profit: rateInput.optional(),
  loss: rateInput.optional(),
  /** The open time as the modal shows it: YYYY-MM-DDTHH:mm (UTC). */
  openTime: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: 'Use the format YYYY-MM-DDTHH:mm' })
    .refine(
      (s) => parseIsoDate(s.slice(0, 10)) !== null && Number(s.slice(11, 13)) < 24 && Number(s.slice(14, 16)) < 60,
      { error: 'Enter a real date and time' },
    )
    .optional(),
});
export type AdminTradeUpdateRequest = z.input<typeof AdminTradeUpdateRequest>;
export const AdminTradeResponse = z.object({ message: z.string(), trade: AdminTradeDto });
