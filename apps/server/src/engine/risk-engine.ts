import { resolveStopout, type Side } from '@platform/domain';

/**
 * The risk engine: an in-memory, I/O-free model of every open position that decides WHEN a position must be
 * closed (take-profit, stop-loss, stop-out). It never closes anything itself: it returns actions, the risk service
 * closes them in database transactions (in decimal, with the spec's formulas) and reports back with
 * removePosition / releaseClosing / setWalletBalance.
 *
 * Layout: positions live in dense slots of typed arrays (struct of arrays), so a tick or a sweep is a tight loop over
 * numbers with no object per position. Removal moves the last slot into the hole, so slots 0..count-1 are always
 * the open positions. Each instrument keeps the list of its slots and each wallet the list of its slots (both
 * swap-remove, O(1)); wallet used margin and P/L sum are kept incrementally, so a tick costs work proportional to
 * the positions on that instrument plus the wallets they belong to, never to all positions.
 *
 * Numbers are doubles. That is enough to decide when to close:
 * - Prices reach the engine as doubles parsed from decimal text with at most 8 decimals (the price book rounds them
 *   to the instrument's digits). Parsing rounds to the nearest double, and rounding to nearest is monotonic, so
 *   a ≤ b between the decimals implies the same between the doubles. Two different such decimals are at least
 *   1e-8 apart, while below 2^26 (≈ 6.7e7, far above any price) neighbouring doubles are at most 2^-27 ≈ 7.5e-9
 *   apart, so rounding never merges them (each moves by at most half that) and never swaps them. Equal decimals give
 *   the same double. Comparing a price with a take-profit or stop-loss level parsed the same way therefore gives
 *   exactly the decimal answer, including the "reaches" (equal) case.
 * - P/L, equity and margin level are sums and quotients, so they carry rounding errors of a few 1e-16 of the
 *   magnitudes involved; the stop-out decision can only differ from the decimal one when the margin level is within
 *   that hair of the threshold, and the close itself is computed in decimal by the order service. The sweep
 *   recomputes everything from scratch, which also removes the drift of incremental sums.
 */

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

/** Read-only views of the position columns, for the benchmark and diagnostics; stale after the next add or remove. */
export interface RiskColumns {
  count: number;
  wallet: Int32Array;
  instrument: Int32Array;
  side: Int8Array;
  openRate: Float64Array;
  amount: Float64Array;
  spread: Float64Array;
  convSlot: Int32Array;
  conversion: Float64Array;
  pl: Float64Array;
  instrumentSlots(instrument: number): Int32Array;
}

// Closing state of a position: open, closing for its take-profit or stop-loss, closing as a stop-out.
const OPEN = 0;
const CLOSING = 1;
const CLOSING_STOPOUT = 2;

type ExitReason = Exclude<RiskReason, 'stop_out'>;

const NONE: readonly RiskAction[] = Object.freeze([]);

type Column = Float64Array | Int32Array | Int8Array | Uint8Array;

/** A copy of `a` with room for `cap` entries; new entries take `fill` (typed arrays start at 0 otherwise). */
function grow<T extends Column>(a: T, cap: number, fill?: number): T {
  const b = new (a.constructor as new (length: number) => T)(cap);
  b.set(a);
  if (fill !== undefined) b.fill(fill, a.length);
  return b;
}

export class RiskEngine {
  // Positions, one slot each; slots 0..n-1 are open positions.
  private n = 0;
  private pOrder = new Float64Array(1024);
  private pWallet = new Int32Array(1024);
  private pInstr = new Int32Array(1024);
  private pSide = new Int8Array(1024);
  private pOpen = new Float64Array(1024);
  private pAmount = new Float64Array(1024);
  private pSpread = new Float64Array(1024);
  private pConv = new Int32Array(1024);
  private pMargin = new Float64Array(1024);
  private pTp = new Float64Array(1024);
  private pSl = new Float64Array(1024);
  private pPl = new Float64Array(1024);
  private pClosing = new Uint8Array(1024);
  /** Index of the slot inside its instrument's list and inside its wallet's list (for O(1) swap-remove). */
  private pInInstr = new Int32Array(1024);
  private pInWallet = new Int32Array(1024);
  private readonly slotOfOrder = new Map<number, number>();

  // Instruments by the caller's dense index: last quote (NaN until seen) and the slots of their positions.
  private iBid = new Float64Array(64).fill(NaN);
  private iAsk = new Float64Array(64).fill(NaN);
  private iCount = new Int32Array(64);
  private iList: Int32Array[] = [];

  // Wallets in slots of their own.
  private wN = 0;
  private wId = new Float64Array(1024);
  private wBalance = new Float64Array(1024);
  private wMargin = new Float64Array(1024);
  private wPl = new Float64Array(1024);
  private wStopout = new Float64Array(1024);
  /** 1 while a stop-out close of this wallet is in flight: the next one is decided after it lands (checkWallet). */
  private wInflight = new Uint8Array(1024);
  /** Tick stamp, so each touched wallet is checked once per tick. */
  private wStamp = new Int32Array(1024);
  private wList: number[][] = [];
  private readonly slotOfWallet = new Map<number, number>();
  private touched = new Int32Array(1024);
  private stamp = 0;

  /** Conversion rates by slot; NaN until set, except slot 0 which is 1 (wallet currency = quote currency). */
  private conv = new Float64Array(64).fill(NaN);

  constructor() {
    this.conv[0] = 1;
    for (let i = 0; i < 64; i++) this.iList.push(new Int32Array(16));
  }

  /** Number of open positions tracked. */
  get size(): number {
    return this.n;
  }

  // ---- wallets ---------------------------------------------------------------------------------------------------

  /** Creates or updates a wallet. `stopoutPercent` null or 0 means the default (50, spec §9). */
  upsertWallet(walletId: number, w: { balance: number; stopoutPercent: number | null }): void {
    let slot = this.slotOfWallet.get(walletId);
    if (slot === undefined) {
      slot = this.wN++;
      if (slot === this.wId.length) this.growWallets();
      this.slotOfWallet.set(walletId, slot);
      this.wId[slot] = walletId;
      this.wList.push([]);
    }
    this.wBalance[slot] = w.balance;
    this.wStopout[slot] = resolveStopout(w.stopoutPercent);
  }

  /**
   * New balance after a committed change (close, deposit, withdrawal). Returns false for a wallet the engine does
   * not know. It does not re-evaluate the wallet: call checkWallet when a lower balance may cross the stop-out.
   */
  setWalletBalance(walletId: number, balance: number): boolean {
    const slot = this.slotOfWallet.get(walletId);
    if (slot === undefined) return false;
    this.wBalance[slot] = balance;
    return true;
  }

  /** Balance, used margin, P/L sum, equity and margin level of a wallet, or null when unknown. */
  walletState(walletId: number): RiskWalletState | null {
    const w = this.slotOfWallet.get(walletId);
    if (w === undefined) return null;
    const margin = this.wMargin[w];
    const equity = this.wBalance[w] + this.wPl[w];
    return {
      balance: this.wBalance[w],
      margin,
      pl: this.wPl[w],
      equity,
      marginLevel: margin > 0 ? (equity / margin) * 100 : null,
      positions: this.wList[w].length,
    };
  }

  /**
   * Re-evaluates a wallet's stop-out now: the service calls it after each stop-out close lands (and after a balance
   * drop) so the next-worst position is closed until the wallet is safe. Null when safe, when a stop-out close is
   * still in flight, or when every position is already closing.
   */
  checkWallet(walletId: number): RiskAction | null {
    const w = this.slotOfWallet.get(walletId);
    return w === undefined ? null : this.stopoutOf(w);
  }

  // ---- conversion rates -------------------------------------------------------------------------------------------

  /**
   * Sets a conversion rate (quote-currency units per wallet-currency unit). Positions pick it up at their
   * instrument's next tick or at the next sweep, so a rate change does not cost a pass over the positions using it.
   */
  setConversion(slot: number, rate: number): void {
    if (slot === 0) throw new Error('conversion slot 0 is reserved for rate 1');
    if (!(rate > 0)) throw new Error(`conversion rate must be positive: ${rate}`);
    if (slot >= this.conv.length) this.conv = grow(this.conv, Math.max(slot + 1, this.conv.length * 2), NaN);
    this.conv[slot] = rate;
  }

  // ---- positions --------------------------------------------------------------------------------------------------

  /**
   * Starts tracking an open position. Its P/L starts from the last quote seen for the instrument, or from its open
   * rate (P/L = −spread) before any. The wallet and the conversion slot must exist. It is not evaluated here: the
   * next tick of its instrument is.
   */
  addPosition(p: RiskPosition): void {
    if (this.slotOfOrder.has(p.orderId)) throw new Error(`position ${p.orderId} is already tracked`);
    const w = this.slotOfWallet.get(p.walletId);
    if (w === undefined) throw new Error(`wallet ${p.walletId} is not tracked`);
    if (!(p.convSlot >= 0 && this.conv[p.convSlot] > 0)) throw new Error(`conversion slot ${p.convSlot} has no rate`);
    if (!Number.isInteger(p.instrument) || p.instrument < 0) throw new Error(`bad instrument index ${p.instrument}`);
    this.ensureInstrument(p.instrument);
    const s = this.n++;
    if (s === this.pOrder.length) this.growPositions();

    const side = p.side === 'buy' ? 1 : -1;
    this.pOrder[s] = p.orderId;
    this.pWallet[s] = w;
    this.pInstr[s] = p.instrument;
    this.pSide[s] = side;
    this.pOpen[s] = p.openRate;
    this.pAmount[s] = p.amount;
    this.pSpread[s] = p.spread;
    this.pConv[s] = p.convSlot;
    this.pMargin[s] = p.margin;
    this.pTp[s] = p.takeProfit ?? NaN;
    this.pSl[s] = p.stopLoss ?? NaN;
    this.pClosing[s] = OPEN;
    const quoted = side > 0 ? this.iBid[p.instrument] : this.iAsk[p.instrument];
    const close = quoted === quoted ? quoted : p.openRate;
    const pl = (side * (close - p.openRate) * p.amount - p.spread) / this.conv[p.convSlot];
    this.pPl[s] = pl;
    this.slotOfOrder.set(p.orderId, s);

    const ins = p.instrument;
    let list = this.iList[ins];
    const k = this.iCount[ins]++;
    if (k === list.length) list = this.iList[ins] = grow(list, list.length * 2);
    list[k] = s;
    this.pInInstr[s] = k;

    const wl = this.wList[w];
    this.pInWallet[s] = wl.length;
    wl.push(s);
    this.wMargin[w] += p.margin;
    this.wPl[w] += pl;
  }

  /** Stops tracking a position (closed, or deleted by staff). Returns false when it was not tracked. */
  removePosition(orderId: number): boolean {
    const s = this.slotOfOrder.get(orderId);
    if (s === undefined) return false;
    const w = this.pWallet[s];
    if (this.pClosing[s] === CLOSING_STOPOUT) this.wInflight[w] = 0;

    const wl = this.wList[w];
    if (wl.length === 1) {
      // Exact zero for an empty wallet, so float residue never leaves a phantom margin behind.
      this.wMargin[w] = 0;
      this.wPl[w] = 0;
    } else {
      this.wMargin[w] -= this.pMargin[s];
      this.wPl[w] -= this.pPl[s];
    }
    const iw = this.pInWallet[s];
    const lastOfWallet = wl.pop() as number;
    if (lastOfWallet !== s) {
      wl[iw] = lastOfWallet;
      this.pInWallet[lastOfWallet] = iw;
    }

    const ins = this.pInstr[s];
    const list = this.iList[ins];
    const ii = this.pInInstr[s];
    const lastOfInstr = list[--this.iCount[ins]];
    if (lastOfInstr !== s) {
      list[ii] = lastOfInstr;
      this.pInInstr[lastOfInstr] = ii;
    }

    this.slotOfOrder.delete(orderId);
    const last = --this.n;
    if (s !== last) this.moveSlot(last, s);
    return true;
  }

  /**
   * New take-profit and stop-loss (null = none). Returns the action when the last quote already reaches one, so a
   * level set beyond the market closes now instead of at the next tick; null otherwise or while it is closing.
   */
  setLevels(orderId: number, takeProfit: number | null, stopLoss: number | null): RiskAction | null {
    const s = this.slotOfOrder.get(orderId);
    if (s === undefined) return null;
    this.pTp[s] = takeProfit ?? NaN;
    this.pSl[s] = stopLoss ?? NaN;
    if (this.pClosing[s] !== OPEN) return null;
    const side = this.pSide[s];
    const close = side > 0 ? this.iBid[this.pInstr[s]] : this.iAsk[this.pInstr[s]];
    const reason = exitReason(side, close, this.pTp[s], this.pSl[s]);
    if (reason === null) return null;
    this.pClosing[s] = CLOSING;
    return { orderId, walletId: this.wId[this.pWallet[s]], reason, price: close };
  }

  /** Makes a position eligible again after its close failed (market closed, database error). */
  releaseClosing(orderId: number): boolean {
    const s = this.slotOfOrder.get(orderId);
    if (s === undefined) return false;
    if (this.pClosing[s] === CLOSING_STOPOUT) this.wInflight[this.pWallet[s]] = 0;
    this.pClosing[s] = OPEN;
    return true;
  }

  /** Current P/L of a position in its wallet's currency, or null when not tracked. */
  positionPl(orderId: number): number | null {
    const s = this.slotOfOrder.get(orderId);
    return s === undefined ? null : this.pPl[s];
  }

  /** Whether a close of this position has been requested and has not landed or been released yet. */
  isClosing(orderId: number): boolean {
    const s = this.slotOfOrder.get(orderId);
    return s !== undefined && this.pClosing[s] !== OPEN;
  }

  // ---- evaluation -------------------------------------------------------------------------------------------------

  /**
   * A new quote for one instrument: recomputes the P/L of that instrument's positions, moves each wallet's P/L sum
   * by the difference, returns the take-profits and stop-losses reached, then checks each touched wallet once for a
   * stop-out. Every returned position is flagged closing so it is not returned again while its close is in flight.
   */
  tick(instrument: number, bid: number, ask: number): readonly RiskAction[] {
    this.ensureInstrument(instrument);
    this.iBid[instrument] = bid;
    this.iAsk[instrument] = ask;
    const count = this.iCount[instrument];
    if (count === 0) return NONE;

    const stamp = this.nextStamp();
    const list = this.iList[instrument];
    const { pSide, pOpen, pAmount, pSpread, pConv, pPl, pWallet, pClosing, pTp, pSl } = this;
    const { wPl, wStamp, touched, conv } = this;
    let nTouched = 0;
    let actions: RiskAction[] | null = null;
    for (let k = 0; k < count; k++) {
      const s = list[k];
      const side = pSide[s];
      const close = side > 0 ? bid : ask;
      const pl = (side * (close - pOpen[s]) * pAmount[s] - pSpread[s]) / conv[pConv[s]];
      const w = pWallet[s];
      wPl[w] += pl - pPl[s];
      pPl[s] = pl;
      if (wStamp[w] !== stamp) {
        wStamp[w] = stamp;
        touched[nTouched++] = w;
      }
      if (pClosing[s] === OPEN) {
        const reason = exitReason(side, close, pTp[s], pSl[s]);
        if (reason !== null) {
          pClosing[s] = CLOSING;
          (actions ??= []).push({ orderId: this.pOrder[s], walletId: this.wId[w], reason, price: close });
        }
      }
    }
    for (let t = 0; t < nTouched; t++) {
      const a = this.stopoutOf(touched[t]);
      if (a !== null) (actions ??= []).push(a);
    }
    return actions ?? NONE;
  }

  /**
   * Recomputes every position's P/L and every wallet's used margin and P/L sum from scratch, then evaluates
   * take-profits, stop-losses and every wallet's stop-out. `bids`/`asks` are indexed by instrument; a NaN entry
   * (or a missing one, or no arrays at all) keeps the last quote seen. Positions of an instrument never quoted are
   * valued at their open rate and are not checked against their levels.
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
    const { n, pSide, pOpen, pAmount, pSpread, pConv, pPl, pWallet, pInstr, pMargin, pClosing, pTp, pSl } = this;
    const { wPl, wMargin, iBid, iAsk, conv } = this;
    wPl.fill(0, 0, this.wN);
    wMargin.fill(0, 0, this.wN);
    let actions: RiskAction[] | null = null;
    for (let s = 0; s < n; s++) {
      const side = pSide[s];
      const ins = pInstr[s];
      const open = pOpen[s];
      let close = side > 0 ? iBid[ins] : iAsk[ins];
      const quoted = close === close;
      if (!quoted) close = open;
      const pl = (side * (close - open) * pAmount[s] - pSpread[s]) / conv[pConv[s]];
      pPl[s] = pl;
      const w = pWallet[s];
      wPl[w] += pl;
      wMargin[w] += pMargin[s];
      if (quoted && pClosing[s] === OPEN) {
        const reason = exitReason(side, close, pTp[s], pSl[s]);
        if (reason !== null) {
          pClosing[s] = CLOSING;
          (actions ??= []).push({ orderId: this.pOrder[s], walletId: this.wId[w], reason, price: close });
        }
      }
    }
    for (let w = 0; w < this.wN; w++) {
      const a = this.stopoutOf(w);
      if (a !== null) (actions ??= []).push(a);
    }
    return actions ?? NONE;
  }

  columns(): RiskColumns {
    return {
      count: this.n,
      wallet: this.pWallet,
      instrument: this.pInstr,
      side: this.pSide,
      openRate: this.pOpen,
      amount: this.pAmount,
      spread: this.pSpread,
      convSlot: this.pConv,
      conversion: this.conv,
      pl: this.pPl,
      instrumentSlots: (i) => (i < this.iList.length ? this.iList[i].subarray(0, this.iCount[i]) : new Int32Array(0)),
    };
  }

  // ---- internals --------------------------------------------------------------------------------------------------

  /**
   * Stop-out of one wallet: used margin > 0 and (equity ≤ 0 or margin level ≤ stopout percent) → its worst open
   * position (lowest P/L, not already closing). One at a time: the wallet is then in flight until that close lands
   * or is released, and checkWallet decides whether the next one must go.
   */
  private stopoutOf(w: number): RiskAction | null {
    if (this.wInflight[w] !== 0) return null;
    const margin = this.wMargin[w];
    if (!(margin > 0)) return null;
    const equity = this.wBalance[w] + this.wPl[w];
    if (!(equity <= 0 || (equity / margin) * 100 <= this.wStopout[w])) return null;
    const wl = this.wList[w];
    let worst = -1;
    let worstPl = Infinity;
    for (let k = 0; k < wl.length; k++) {
      const s = wl[k];
      if (this.pClosing[s] === OPEN && (worst < 0 || this.pPl[s] < worstPl)) {
        worst = s;
        worstPl = this.pPl[s];
      }
    }
    if (worst < 0) return null;
    this.pClosing[worst] = CLOSING_STOPOUT;
    this.wInflight[w] = 1;
    const side = this.pSide[worst];
    const quoted = side > 0 ? this.iBid[this.pInstr[worst]] : this.iAsk[this.pInstr[worst]];
    return {
      orderId: this.pOrder[worst],
      walletId: this.wId[w],
      reason: 'stop_out',
      price: quoted === quoted ? quoted : this.pOpen[worst],
    };
  }

  /** Moves the position in slot `from` to slot `to` (the hole left by a removal) and repoints its indexes. */
  private moveSlot(from: number, to: number): void {
    this.pOrder[to] = this.pOrder[from];
    this.pWallet[to] = this.pWallet[from];
    this.pInstr[to] = this.pInstr[from];
    this.pSide[to] = this.pSide[from];
    this.pOpen[to] = this.pOpen[from];
    this.pAmount[to] = this.pAmount[from];
    this.pSpread[to] = this.pSpread[from];
    this.pConv[to] = this.pConv[from];
    this.pMargin[to] = this.pMargin[from];
    this.pTp[to] = this.pTp[from];
    this.pSl[to] = this.pSl[from];
    this.pPl[to] = this.pPl[from];
    this.pClosing[to] = this.pClosing[from];
    this.pInInstr[to] = this.pInInstr[from];
    this.pInWallet[to] = this.pInWallet[from];
    this.slotOfOrder.set(this.pOrder[to], to);
    this.iList[this.pInstr[to]][this.pInInstr[to]] = to;
    this.wList[this.pWallet[to]][this.pInWallet[to]] = to;
  }

  private nextStamp(): number {
    if (this.stamp === 0x7fffffff) {
      // Stamps would wrap: start over from a clean slate so an old stamp can never match.
      this.wStamp.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private ensureInstrument(i: number): void {
    if (i < this.iBid.length) return;
    const cap = Math.max(i + 1, this.iBid.length * 2);
    this.iBid = grow(this.iBid, cap, NaN);
    this.iAsk = grow(this.iAsk, cap, NaN);
    this.iCount = grow(this.iCount, cap);
    while (this.iList.length < cap) this.iList.push(new Int32Array(16));
  }

  private growPositions(): void {
    const cap = this.pOrder.length * 2;
    this.pOrder = grow(this.pOrder, cap);
    this.pWallet = grow(this.pWallet, cap);
    this.pInstr = grow(this.pInstr, cap);
    this.pSide = grow(this.pSide, cap);
    this.pOpen = grow(this.pOpen, cap);
    this.pAmount = grow(this.pAmount, cap);
    this.pSpread = grow(this.pSpread, cap);
    this.pConv = grow(this.pConv, cap);
    this.pMargin = grow(this.pMargin, cap);
    this.pTp = grow(this.pTp, cap);
    this.pSl = grow(this.pSl, cap);
    this.pPl = grow(this.pPl, cap);
    this.pClosing = grow(this.pClosing, cap);
    this.pInInstr = grow(this.pInInstr, cap);
    this.pInWallet = grow(this.pInWallet, cap);
  }

  private growWallets(): void {
    const cap = this.wId.length * 2;
    this.wId = grow(this.wId, cap);
    this.wBalance = grow(this.wBalance, cap);
    this.wMargin = grow(this.wMargin, cap);
    this.wPl = grow(this.wPl, cap);
    this.wStopout = grow(this.wStopout, cap);
    this.wInflight = grow(this.wInflight, cap);
    this.wStamp = grow(this.wStamp, cap);
    this.touched = grow(this.touched, cap);
  }
}

/**
 * Which level a close price reaches (the same rule as triggeredExit in @platform/domain): a buy (side +1, closing at
 * the bid) when it falls to its stop-loss or rises to its take-profit; a sell (side −1, closing at the ask) when it
 * rises to its stop-loss or falls to its take-profit. The stop-loss wins when both are reached. NaN levels (none)
 * compare false.
 */
function exitReason(side: number, close: number, takeProfit: number, stopLoss: number): ExitReason | null {
  if (side > 0) {
    if (close <= stopLoss) return 'stop_loss';
    if (close >= takeProfit) return 'take_profit';
  } else {
    if (close >= stopLoss) return 'stop_loss';
    if (close <= takeProfit) return 'take_profit';
  }
  return null;
}
