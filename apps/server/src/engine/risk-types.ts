import type { Side } from '@platform/domain';

/** What the risk engine takes and answers (risk-engine.ts). */

export type RiskReason = 'take_profit' | 'stop_loss' | 'stop_out';

export interface RiskAction {
  orderId: number;
  walletId: number;
  reason: RiskReason;
  /** The close price that triggered it: the bid for a buy, the ask for a sell. */
  price: number;
}

export interface RiskPosition {
  orderId: number;
  walletId: number;
  /** Dense index of the instrument chosen by the caller (small non-negative integer). */
  instrument: number;
  side: Side;
  openRate: number;
  amount: number;
  /** Spread cost in the quote currency, charged on close (spec §9). */
  spread: number;
  /** Slot of the conversion-rate table (quote-currency units per wallet-currency unit); slot 0 is always 1. */
  convSlot: number;
  /** Used margin of the position in the wallet currency. */
  margin: number;
  takeProfit: number | null;
  stopLoss: number | null;
}

export interface RiskWalletState {
  balance: number;
  /** Used margin: the sum of the wallet's open positions' margin. */
  margin: number;
  /** Sum of the wallet's open positions' current P/L. */
  pl: number;
  equity: number;
  /** Equity ÷ used margin × 100, or null without used margin. */
  marginLevel: number | null;
  positions: number;
}

/** One block of position columns, read-only, for the benchmark and diagnostics. */
export interface RiskBlockView {
  instrument: number;
  /** +1 buy (closes at the bid), −1 sell (closes at the ask). */
  sign: 1 | -1;
  convSlot: number;
  count: number;
  wallet: Int32Array;
  /** Open rates (the exposure desk's average prices). */
  open: Float64Array;
  breakEven: Float64Array;
  amount: Float64Array;
  pl: Float64Array;
}
