import type { Block } from './risk-block.ts';
import type { RiskReason } from './risk-types.ts';

/**
 * The engine's per-block loops (risk-block.ts explains the layout): the P/L of every position of a block at one
 * close price, moved into its wallet's P/L sum, with the levels checked only when the block's bounds say one may be
 * reached. Small separate loops rather than one with flags: each stays monomorphic and branch-free on its hot path.
 * `f` is the block's sign times its inverse conversion rate.
 */

/** The wallet columns a tick updates: [P/L sum, stop-out limit] per wallet, the tick stamps, the wallets in danger. */
export interface WalletColumns {
  hot: Float64Array;
  stamp: Int32Array;
  candidates: Int32Array;
}

/** Called for an entry whose close price is outside its band: the engine decides which level and flags it. */
export type OnLevel = (blk: Block, k: number, close: number) => void;

/** A tick over a block whose bounds say no level can be reached; returns the new count of wallet candidates. */
export function tickBlock(blk: Block, close: number, f: number, w: WalletColumns, stamp: number, nc: number): number {
  const { count, breakEven, amount, pl, wallet } = blk;
  const { hot, stamp: stamps, candidates } = w;
  for (let k = 0; k < count; k++) {
    const p = (close - breakEven[k]) * amount[k] * f;
    const s = wallet[k];
    const sum = hot[s * 2] + (p - pl[k]);
    hot[s * 2] = sum;
    pl[k] = p;
    if (sum <= hot[s * 2 + 1] && stamps[s] !== stamp) {
      stamps[s] = stamp;
      candidates[nc++] = s;
    }
  }
  return nc;
}

/** The same with the levels checked; it also makes the block bounds exact again. */
export function tickBlockLevels(
  blk: Block,
  close: number,
  f: number,
  w: WalletColumns,
  stamp: number,
  nc: number,
  onLevel: OnLevel,
): number {
  const { count, breakEven, amount, pl, wallet, lo, hi } = blk;
  const { hot, stamp: stamps, candidates } = w;
  let maxLo = -Infinity;
  let minHi = Infinity;
  for (let k = 0; k < count; k++) {
    const p = (close - breakEven[k]) * amount[k] * f;
    const s = wallet[k];
    const sum = hot[s * 2] + (p - pl[k]);
    hot[s * 2] = sum;
    pl[k] = p;
    if (sum <= hot[s * 2 + 1] && stamps[s] !== stamp) {
      stamps[s] = stamp;
      candidates[nc++] = s;
    }
    if (close <= lo[k] || close >= hi[k]) onLevel(blk, k, close);
    if (lo[k] > maxLo) maxLo = lo[k];
    if (hi[k] < minHi) minHi = hi[k];
  }
  blk.maxLo = maxLo;
  blk.minHi = minHi;
  return nc;
}

/** A sweep over a block no level of which can be reached: P/L recomputed and summed per wallet into `sums`. */
export function sweepBlock(blk: Block, close: number, f: number, sums: Float64Array): void {
  const { count, breakEven, amount, pl, wallet } = blk;
  for (let k = 0; k < count; k++) {
    const p = (close - breakEven[k]) * amount[k] * f;
    sums[wallet[k]] += p;
    pl[k] = p;
  }
}

/** The same with the levels checked; it also makes the block bounds exact again. */
export function sweepBlockLevels(blk: Block, close: number, f: number, sums: Float64Array, onLevel: OnLevel): void {
  const { count, breakEven, amount, pl, wallet, lo, hi } = blk;
  let maxLo = -Infinity;
  let minHi = Infinity;
  for (let k = 0; k < count; k++) {
    const p = (close - breakEven[k]) * amount[k] * f;
    sums[wallet[k]] += p;
    pl[k] = p;
    if (close <= lo[k] || close >= hi[k]) onLevel(blk, k, close);
    if (lo[k] > maxLo) maxLo = lo[k];
    if (hi[k] < minHi) minHi = hi[k];
  }
  blk.maxLo = maxLo;
  blk.minHi = minHi;
}

/** Never quoted: valued at the open rate, so only the spread counts, and no level can be judged. */
export function sweepUnquoted(blk: Block, f: number, sums: Float64Array): void {
  const { count, open, breakEven, amount, pl, wallet } = blk;
  for (let k = 0; k < count; k++) {
    const p = (open[k] - breakEven[k]) * amount[k] * f;
    sums[wallet[k]] += p;
    pl[k] = p;
  }
}

type ExitReason = Exclude<RiskReason, 'stop_out'>;

/**
 * Which level a close price reaches (the same rule as triggeredExit in @platform/domain): a buy (sign +1, closing at
 * the bid) when it falls to its stop-loss or rises to its take-profit; a sell (sign −1, closing at the ask) when it
 * rises to its stop-loss or falls to its take-profit. The stop-loss wins when both are reached. NaN levels (none)
 * compare false.
 */
export function exitReason(sign: number, close: number, takeProfit: number, stopLoss: number): ExitReason | null {
  if (sign > 0) {
    if (close <= stopLoss) return 'stop_loss';
    if (close >= takeProfit) return 'take_profit';
  } else {
    if (close >= stopLoss) return 'stop_loss';
    if (close <= takeProfit) return 'take_profit';
  }
  return null;
}
