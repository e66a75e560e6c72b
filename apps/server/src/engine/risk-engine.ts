import type { RiskAction, RiskBlockView, RiskPosition, RiskWalletState } from './risk-types.ts';
import { type Block, CLOSING, CLOSING_STOPOUT, grow, OPEN } from './risk-block.ts';
import { PositionSlots } from './position-slots.ts';
import { exitReason, sweepBlock, sweepBlockLevels, sweepUnquoted, tickBlock, tickBlockLevels } from './risk-loops.ts';
import { RiskWallets } from './risk-wallets.ts';
import { TrailingBook } from './trailing-book.ts';

export type { RiskAction, RiskBlockView, RiskPosition, RiskReason, RiskWalletState } from './risk-types.ts';

/**
 * The risk engine: an in-memory, I/O-free model of every open position that decides WHEN a position must be
 * closed (take-profit, stop-loss, stop-out). It never closes anything itself: it returns actions, the risk service
 * closes them in database transactions (in decimal, with the spec's formulas) and reports back with
 * removePosition / releaseClosing / setWalletBalance.
 *
 * Layout: positions in blocks of columns, one per (instrument, side, conversion slot), and a small hot record per
 * wallet; risk-block.ts describes it, position-slots.ts stores the blocks and the positions by stable id,
 * risk-loops.ts holds the loops over them, risk-wallets.ts the wallets.
 *
 * Numbers are doubles. That is enough to decide when to close:
 * - Prices reach the engine as doubles parsed from decimal text with at most 8 decimals (the price book rounds them
 *   to the instrument's digits). Parsing rounds to the nearest double, and rounding to nearest is monotonic, so
 *   a ≤ b between the decimals implies the same between the doubles. Two different such decimals are at least
 *   1e-8 apart, while below 2^26 (≈ 6.7e7, far above any price) neighbouring doubles are at most 2^-27 ≈ 7.5e-9
 *   apart, so rounding never merges them (each moves by at most half that) and never swaps them. Equal decimals give
 *   the same double. Comparing a price with a take-profit or stop-loss level parsed the same way therefore gives
 *   exactly the decimal answer, including the "reaches" (equal) case.
 * - P/L, equity and margin level are sums and products, so they carry rounding errors of a few 1e-16 of the
 *   magnitudes involved; the stop-out decision can only differ from the decimal one when the margin level is within
 *   that hair of the threshold (see TIE in risk-wallets.ts), and the close itself is computed in decimal by the order
 *   service. The sweep recomputes the P/L from scratch, which also removes the drift of the incremental sums.
 */

const NONE: readonly RiskAction[] = Object.freeze([]);

export class RiskEngine {
  /** The last quote per instrument. */
  private iBid = new Float64Array(0);
  private iAsk = new Float64Array(0);

  /** The blocks, and the positions by stable id: where the entry lives, the order id, levels and closing state. */
  private readonly pos = new PositionSlots();

  /** Wallets in slots, with the hot record the tick loops update (risk-wallets.ts). */
  private readonly w = new RiskWallets();
  /** Trailing stops by instrument and side, ordered by the price that moves them (trailing-book.ts). */
  private readonly trailing = new TrailingBook();

  /** Inverse conversion rates by slot (a product is cheaper than a division); NaN until set. */
  private invConv = new Float64Array(64).fill(NaN);

  /** Actions collected by the block loops of the current tick or sweep. */
  private out: RiskAction[] | null = null;

  constructor() {
    this.invConv[0] = 1;
  }

  /** Number of open positions tracked. */
  get size(): number {
    return this.pos.size;
  }

  // ---- wallets ---------------------------------------------------------------------------------------------------

  /**
   * Creates or updates a wallet. `stopoutPercent` null or 0 means the default (50, spec §9); `marginCall` is the
   * plan's margin-call level and re-arm points (null: none; left out: unchanged).
   */
  upsertWallet(
    walletId: number,
    w: { balance: number; stopoutPercent: number | null; marginCall?: { level: number; rearm: number } | null },
  ): void {
    this.w.upsert(walletId, w.balance, w.stopoutPercent, w.marginCall);
  }

  /**
   * The wallets' table, for what concerns wallets alone: margin calls (arming, draining the calls fired and
   * re-armed), the list by margin level, whether a stop-out is in flight.
   */
  get wallets(): RiskWallets {
    return this.w;
  }

  /**
   * New balance after a committed change (close, deposit, withdrawal). Returns false for a wallet the engine does
   * not know. It does not re-evaluate the wallet: call checkWallet when a lower balance may cross the stop-out.
   */
  setWalletBalance(walletId: number, balance: number): boolean {
    return this.w.setBalance(walletId, balance);
  }

  /** Balance, used margin, P/L sum, equity and margin level of a wallet, or null when unknown. */
  walletState(walletId: number): RiskWalletState | null {
    return this.w.state(walletId);
  }

  /**
   * Re-evaluates a wallet's stop-out now: the service calls it after each stop-out close lands (and after a balance
   * drop or an opening) so the next-worst position is closed until the wallet is safe. Null when safe, when a
   * stop-out close is still in flight, or when every position is already closing.
   */
  checkWallet(walletId: number): RiskAction | null {
    const w = this.w.slotOf(walletId);
    if (w === undefined || !this.w.inDanger(w)) return null;
    return this.stopOut(w);
  }

  // ---- conversion rates -------------------------------------------------------------------------------------------

  /**
   * Sets a conversion rate (quote-currency units per wallet-currency unit). Positions pick it up at their
   * instrument's next tick or at the next sweep, so a rate change does not cost a pass over the positions using it.
   */
  setConversion(slot: number, rate: number): void {
    if (slot === 0) throw new Error('conversion slot 0 is reserved for rate 1');
    if (!Number.isInteger(slot) || slot < 0) throw new Error(`bad conversion slot ${slot}`);
    if (!(rate > 0)) throw new Error(`conversion rate must be positive: ${rate}`);
    if (slot >= this.invConv.length)
      this.invConv = grow(this.invConv, Math.max(slot + 1, this.invConv.length * 2), NaN);
    this.invConv[slot] = 1 / rate;
  }

  // ---- positions --------------------------------------------------------------------------------------------------

  /**
   * Starts tracking an open position. Its P/L starts from the last quote seen for the instrument, or from its open
   * rate (P/L = −spread) before any. The wallet and the conversion slot must exist. It is not evaluated here: the
   * next tick of its instrument is (or checkWallet).
   */
  addPosition(p: RiskPosition): void {
    if (this.pos.has(p.orderId)) throw new Error(`position ${p.orderId} is already tracked`);
    const w = this.w.slotOf(p.walletId);
    if (w === undefined) throw new Error(`wallet ${p.walletId} is not tracked`);
    if (!(p.convSlot >= 0 && this.invConv[p.convSlot] > 0))
      throw new Error(`conversion slot ${p.convSlot} has no rate`);
    if (!Number.isInteger(p.instrument) || p.instrument < 0) throw new Error(`bad instrument index ${p.instrument}`);
    if (!(p.amount > 0)) throw new Error(`amount must be positive: ${p.amount}`);
    this.ensureInstrument(p.instrument);

    const pos = this.pos;
    const sign = p.side === 'buy' ? 1 : -1;
    const pid = pos.add(p.orderId, p.instrument, sign, p.convSlot);
    const blk = pos.blocks[pos.block[pid]];
    const i = pos.index[pid];
    const quoted = sign > 0 ? this.iBid[p.instrument] : this.iAsk[p.instrument];
    const close = quoted === quoted ? quoted : p.openRate;
    const breakEven = p.openRate + (sign * p.spread) / p.amount;
    const pl = (close - breakEven) * p.amount * sign * this.invConv[p.convSlot];
    blk.pid[i] = pid;
    blk.wallet[i] = w;
    blk.open[i] = p.openRate;
    blk.breakEven[i] = breakEven;
    blk.amount[i] = p.amount;
    blk.margin[i] = p.margin;
    blk.pl[i] = pl;

    pos.tp[pid] = p.takeProfit ?? NaN;
    pos.sl[pid] = p.stopLoss ?? NaN;
    pos.closing[pid] = OPEN;
    pos.setBand(pid);

    pos.inWallet[pid] = this.w.attach(w, pid, p.margin, pl);
  }

  /** Stops tracking a position (closed, or deleted by staff). Returns false when it was not tracked. */
  removePosition(orderId: number): boolean {
    const pos = this.pos;
    const pid = pos.pidOf(orderId);
    if (pid === undefined) return false;
    const w = pos.blocks[pos.block[pid]].wallet[pos.index[pid]];
    if (pos.closing[pid] === CLOSING_STOPOUT) this.w.inflight[w] = 0;
    pos.remove(orderId, pid);

    const iw = pos.inWallet[pid];
    const movedInWallet = this.w.detach(w, iw);
    if (movedInWallet >= 0) pos.inWallet[movedInWallet] = iw;
    this.trailing.remove(orderId);
    this.resumWallet(w);
    return true;
  }

  /** A partial close's smaller amount, spread and margin, valued at the last quote; false when not tracked. */
  resizePosition(orderId: number, p: { amount: number; spread: number; margin: number }): boolean {
    const pid = this.pos.pidOf(orderId);
    if (pid === undefined) return false;
    if (!(p.amount > 0)) throw new Error(`amount must be positive: ${p.amount}`);
    const blk = this.pos.blocks[this.pos.block[pid]];
    const i = this.pos.index[pid];
    const quoted = blk.sign > 0 ? this.iBid[blk.instrument] : this.iAsk[blk.instrument];
    const close = quoted === quoted ? quoted : blk.open[i];
    blk.amount[i] = p.amount;
    blk.margin[i] = p.margin;
    blk.breakEven[i] = blk.open[i] + (blk.sign * p.spread) / p.amount;
    blk.pl[i] = (close - blk.breakEven[i]) * p.amount * blk.sign * this.invConv[blk.conv];
    this.resumWallet(blk.wallet[i]);
    return true;
  }

  /**
   * Sets a position's trailing stop to move once its close price reaches `trigger` (trailingTrigger), or removes it
   * (null). Returns false when the position is not tracked.
   */
  setTrailing(orderId: number, trigger: number | null): boolean {
    const pid = this.pos.pidOf(orderId);
    if (pid === undefined) return false;
    if (trigger === null || trigger !== trigger) {
      this.trailing.remove(orderId);
      return true;
    }
    const blk = this.pos.blocks[this.pos.block[pid]];
    this.trailing.set(orderId, blk.instrument, blk.sign, trigger);
    return true;
  }

  /**
   * The positions whose trailing stop a quote of the instrument moves (buys on the bid, sells on the ask), taken out
   * of the trailing book: the caller stores each move and puts the stop back with setTrailing. Costs the stops it
   * returns, not a pass over the instrument's positions.
   */
  trail(instrument: number, bid: number, ask: number): number[] {
    const out: number[] = [];
    this.trailing.reached(instrument, bid, ask, out);
    return out;
  }

  /** Number of positions with a trailing stop waiting in the book. */
  get trailingSize(): number {
    return this.trailing.size;
  }

  /**
   * New take-profit and stop-loss (null = none). Returns the action when the last quote already reaches one, so a
   * level set beyond the market closes now instead of at the next tick; null otherwise or while it is closing.
   */
  setLevels(orderId: number, takeProfit: number | null, stopLoss: number | null): RiskAction | null {
    const pos = this.pos;
    const pid = pos.pidOf(orderId);
    if (pid === undefined) return null;
    pos.tp[pid] = takeProfit ?? NaN;
    pos.sl[pid] = stopLoss ?? NaN;
    if (pos.closing[pid] !== OPEN) return null;
    pos.setBand(pid);
    const blk = pos.blocks[pos.block[pid]];
    const close = blk.sign > 0 ? this.iBid[blk.instrument] : this.iAsk[blk.instrument];
    const reason = exitReason(blk.sign, close, pos.tp[pid], pos.sl[pid]);
    if (reason === null) return null;
    pos.setClosing(pid, CLOSING);
    return { orderId, walletId: this.w.id[blk.wallet[pos.index[pid]]], reason, price: close };
  }

  /** Makes a position eligible again after its close failed (market closed, database error). */
  releaseClosing(orderId: number): boolean {
    const pos = this.pos;
    const pid = pos.pidOf(orderId);
    if (pid === undefined) return false;
    if (pos.closing[pid] === CLOSING_STOPOUT) {
      const w = pos.blocks[pos.block[pid]].wallet[pos.index[pid]];
      this.w.setInflight(w, false);
    }
    pos.setClosing(pid, OPEN);
    return true;
  }

  /** Current P/L of a position in its wallet's currency, or null when not tracked. */
  positionPl(orderId: number): number | null {
    const pid = this.pos.pidOf(orderId);
    return pid === undefined ? null : this.pos.blocks[this.pos.block[pid]].pl[this.pos.index[pid]];
  }

  /** Whether a close of this position has been requested and has not landed or been released yet. */
  isClosing(orderId: number): boolean {
    const pid = this.pos.pidOf(orderId);
    return pid !== undefined && this.pos.closing[pid] !== OPEN;
  }

  // ---- evaluation -------------------------------------------------------------------------------------------------

  /**
   * A new quote for one instrument: recomputes the P/L of that instrument's positions, moves each wallet's P/L sum
   * by the difference, returns the take-profits and stop-losses reached, then the stop-out of each touched wallet
   * that is at or below its level. Every returned position is flagged closing so it is not returned again while its
   * close is in flight.
   */
  tick(instrument: number, bid: number, ask: number): readonly RiskAction[] {
    this.ensureInstrument(instrument);
    this.iBid[instrument] = bid;
    this.iAsk[instrument] = ask;
    const blocks = this.pos.byInstrument[instrument];
    if (blocks.length === 0) return NONE;

    this.out = null;
    const stamp = this.w.nextStamp();
    let nc = 0;
    const wallets = this.w.columns;
    for (let b = 0; b < blocks.length; b++) {
      const blk = blocks[b];
      if (blk.count === 0) continue;
      const close = blk.sign > 0 ? bid : ask;
      const f = blk.sign * this.invConv[blk.conv];
      nc =
        close > blk.maxLo && close < blk.minHi
          ? tickBlock(blk, close, f, wallets, stamp, nc)
          : tickBlockLevels(blk, close, f, wallets, stamp, nc, this.onLevel);
    }
    // A wallet is looked at again only if its sum went to or below its limit at its last update in this tick.
    const { hot, candidates } = this.w;
    for (let c = 0; c < nc; c++) {
      const w = candidates[c];
      if (hot[w * 2] <= hot[w * 2 + 1]) this.atLimit(w);
    }
    const actions = this.out;
    this.out = null;
    return actions ?? NONE;
  }

  /**
   * Recomputes every position's P/L and every wallet's P/L sum from scratch (used margins need no sweep: they
   * change only on add and remove, and every removal re-sums the wallet's margins from its positions), then
   * evaluates take-profits, stop-losses and every wallet's stop-out. `bids`/`asks` are indexed by instrument; a NaN
   * entry (or a missing one, or no arrays at all) keeps the last quote seen. Positions of an instrument never quoted
   * are valued at their open rate and are not checked against their levels.
   */
  sweep(bids?: Float64Array, asks?: Float64Array): readonly RiskAction[] {
    if (bids && asks) {
      const m = Math.min(bids.length, asks.length);
      if (m > 0) this.ensureInstrument(m - 1);
      for (let i = 0; i < m; i++) {
        if (bids[i] === bids[i] && asks[i] === asks[i]) {
          this.iBid[i] = bids[i];
          this.iAsk[i] = asks[i];
        }
      }
    }
    // Summed into a dense scratch column (8 bytes per wallet instead of the 16 of the hot record): the sum is a
    // random access per position and the smaller table keeps more of it in cache. Copied into the hot record below.
    const wSum = this.w.sum;
    wSum.fill(0, 0, this.w.n);
    this.out = null;
    for (const blk of this.pos.blocks) {
      if (blk.count === 0) continue;
      const close = blk.sign > 0 ? this.iBid[blk.instrument] : this.iAsk[blk.instrument];
      const f = blk.sign * this.invConv[blk.conv];
      if (close !== close) sweepUnquoted(blk, f, wSum);
      else if (close > blk.maxLo && close < blk.minHi) sweepBlock(blk, close, f, wSum);
      else sweepBlockLevels(blk, close, f, wSum, this.onLevel);
    }
    const wHot = this.w.hot;
    // The limits stand: they follow balance, used margin, stop-out percent and in-flight state, which a sweep
    // does not change.
    const called = this.w.called;
    for (let w = 0; w < this.w.n; w++) {
      wHot[w * 2] = wSum[w];
      if (wHot[w * 2] <= wHot[w * 2 + 1]) this.atLimit(w);
      else if (called[w] !== 0) this.w.rearmIfRecovered(w);
    }
    const actions = this.out;
    this.out = null;
    return actions ?? NONE;
  }

  /** Read-only views of the position blocks and the inverse conversion rates; stale after the next add or remove. */
  columns(): { blocks: RiskBlockView[]; inverseConversion: Float64Array } {
    return {
      blocks: this.pos.blocks.map((b) => ({
        instrument: b.instrument,
        sign: b.sign,
        convSlot: b.conv,
        count: b.count,
        wallet: b.wallet,
        open: b.open,
        breakEven: b.breakEven,
        amount: b.amount,
        pl: b.pl,
      })),
      inverseConversion: this.invConv,
    };
  }

  // ---- internals --------------------------------------------------------------------------------------------------

  /** Entry k of a block reached a level at `close`: flag it closing and collect the action (called by the loops). */
  private readonly onLevel = (blk: Block, k: number, close: number): void => {
    const pos = this.pos;
    const pid = blk.pid[k];
    const reason = exitReason(blk.sign, close, pos.tp[pid], pos.sl[pid]);
    if (reason === null) return;
    pos.setClosing(pid, CLOSING);
    (this.out ??= []).push({ orderId: pos.order[pid], walletId: this.w.id[blk.wallet[k]], reason, price: close });
  };

  /** A wallet at its hot limit: a stop-out below the stop-out level, else its margin call (once, until re-armed). */
  private atLimit(w: number): void {
    if (this.w.hot[w * 2] <= this.w.stopLimit[w]) {
      const a = this.stopOut(w);
      if (a !== null) (this.out ??= []).push(a);
    } else this.w.fireCall(w);
  }

  /**
   * Stop-out of a wallet known to be at or below its limit: its worst open position (lowest P/L, not already
   * closing). One at a time: the wallet is then in flight until that close lands or is released, and checkWallet
   * decides whether the next one must go.
   */
  private stopOut(w: number): RiskAction | null {
    const wl = this.w.list[w];
    // The columns in locals: one load each per call, not per position.
    const pos = this.pos;
    const { blocks, closing, block, index } = pos;
    let worst = -1;
    let worstPl = Infinity;
    for (let k = 0; k < wl.length; k++) {
      const pid = wl[k];
      if (closing[pid] !== OPEN) continue;
      const pl = blocks[block[pid]].pl[index[pid]];
      if (worst < 0 || pl < worstPl) {
        worst = pid;
        worstPl = pl;
      }
    }
    if (worst < 0) return null;
    pos.setClosing(worst, CLOSING_STOPOUT);
    this.w.setInflight(w, true);
    const blk = blocks[block[worst]];
    const quoted = blk.sign > 0 ? this.iBid[blk.instrument] : this.iAsk[blk.instrument];
    return {
      orderId: pos.order[worst],
      walletId: this.w.id[w],
      reason: 'stop_out',
      price: quoted === quoted ? quoted : blk.open[index[worst]],
    };
  }

  /**
   * Sums a wallet's used margin and P/L again from its positions. Used after a removal rather than subtracting: a
   * subtraction would leave the rounding residue of the removed (possibly large) position in the sums for as long as
   * the wallet lives, and an empty wallet gets an exact zero. Wallets hold a bounded number of positions and a
   * removal follows a database close, so the short loop costs nothing that matters.
   */
  private resumWallet(w: number): void {
    const wl = this.w.list[w];
    const { blocks, block, index } = this.pos;
    let margin = 0;
    let pl = 0;
    for (let k = 0; k < wl.length; k++) {
      const blk = blocks[block[wl[k]]];
      const i = index[wl[k]];
      margin += blk.margin[i];
      pl += blk.pl[i];
    }
    this.w.setSums(w, margin, pl);
  }

  private ensureInstrument(i: number): void {
    if (i < this.iBid.length) return;
    const cap = Math.max(i + 1, 64, this.iBid.length * 2);
    this.iBid = grow(this.iBid, cap, NaN);
    this.iAsk = grow(this.iAsk, cap, NaN);
    this.pos.addInstruments(cap);
  }
}
