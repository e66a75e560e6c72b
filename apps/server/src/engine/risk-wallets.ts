import { resolveStopout } from '@platform/domain';
import { grow } from './risk-block.ts';
import type { WalletColumns } from './risk-loops.ts';
import type { RiskWalletState } from './risk-types.ts';

/**
 * A margin level exactly at the stop-out in decimal can come out a hair above it in doubles (1.0 → 0.9413 on 10 000
 * gives a P/L of −586.9999999999998, not −587). The spec closes "at or below", so the comparison allows a billionth
 * of the level: exact ties close, and nothing closes earlier by more than that (well under a cent of equity).
 */
const TIE = 1 + 1e-9;

/**
 * The risk engine's wallets, in slots (risk-block.ts describes the layout). `hot` holds [P/L sum, stop-out limit] per
 * wallet, the record the tick loops update; the rest is read off the hot path. The engine owns the positions and
 * tells this table what they add up to.
 */
export class RiskWallets {
  n = 0;
  hot = new Float64Array(1024 * 2);
  margin = new Float64Array(1024);
  balance = new Float64Array(1024);
  id = new Float64Array(1024);
  stopout = new Float64Array(1024);
  /** 1 while a stop-out close of this wallet is in flight: the next one is decided after it lands (checkWallet). */
  inflight = new Uint8Array(1024);
  /** The P/L sum at or below which the wallet stops out (the hot record's limit is the higher of it and the call's). */
  stopLimit = new Float64Array(1024);
  /** The plan's margin-call level (percent; 0: none) and the points above it that re-arm the call. */
  callLevel = new Float64Array(1024);
  callRearm = new Float64Array(1024);
  /** 1 once the margin call fired, until the margin level recovers above level + re-arm. */
  called = new Uint8Array(1024);
  /** Tick stamp, so a wallet in danger is looked at once per tick. */
  stamp = new Int32Array(1024);
  /** The positions (pids) of each wallet. */
  readonly list: number[][] = [];
  candidates = new Int32Array(1024);
  /** The sweep's P/L sums per wallet. */
  sum = new Float64Array(1024);
  /** The wallet columns the tick loops update, in one object (replaced with the arrays when the wallets grow). */
  columns: WalletColumns = { hot: this.hot, stamp: this.stamp, candidates: this.candidates };
  private readonly slotOfWallet = new Map<number, number>();
  private lastStamp = 0;

  slotOf(walletId: number): number | undefined {
    return this.slotOfWallet.get(walletId);
  }

  /**
   * Creates or updates a wallet and returns its slot. `stopoutPercent` null or 0 means the default (50, spec §9);
   * `marginCall` null means none, undefined keeps what the wallet had.
   */
  upsert(
    walletId: number,
    balance: number,
    stopoutPercent: number | null,
    marginCall?: { level: number; rearm: number } | null,
  ): number {
    let slot = this.slotOfWallet.get(walletId);
    if (slot === undefined) {
      slot = this.n++;
      if (slot === this.id.length) this.grow();
      this.slotOfWallet.set(walletId, slot);
      this.id[slot] = walletId;
      this.list.push([]);
    }
    this.balance[slot] = balance;
    this.stopout[slot] = resolveStopout(stopoutPercent);
    if (marginCall !== undefined) {
      this.callLevel[slot] = marginCall?.level ?? 0;
      this.callRearm[slot] = marginCall?.rearm ?? 0;
    }
    this.refreshLimit(slot);
    return slot;
  }

  /** New balance of a known wallet; false for a wallet the engine does not know. */
  setBalance(walletId: number, balance: number): boolean {
    const slot = this.slotOfWallet.get(walletId);
    if (slot === undefined) return false;
    this.balance[slot] = balance;
    this.refreshLimit(slot);
    return true;
  }

  state(walletId: number): RiskWalletState | null {
    const w = this.slotOfWallet.get(walletId);
    if (w === undefined) return null;
    const balance = this.balance[w];
    const margin = this.margin[w];
    const pl = this.hot[w * 2];
    const equity = balance + pl;
    return {
      balance,
      margin,
      pl,
      equity,
      marginLevel: margin > 0 ? (equity / margin) * 100 : null,
      positions: this.list[w].length,
    };
  }

  /** Wallets by margin level, lowest first, with their figures; only wallets holding margin. */
  byMarginLevel(): Array<RiskWalletState & { walletId: number; marginCall: boolean }> {
    const out: Array<RiskWalletState & { walletId: number; marginCall: boolean }> = [];
    for (let w = 0; w < this.n; w++) {
      const state = this.margin[w] > 0 ? this.state(this.id[w]) : null;
      if (state) out.push({ walletId: this.id[w], marginCall: this.called[w] !== 0, ...state });
    }
    return out.sort((a, b) => (a.marginLevel ?? Infinity) - (b.marginLevel ?? Infinity));
  }

  /** Whether the wallet's P/L sum is at or below its stop-out limit. */
  inDanger(w: number): boolean {
    return this.hot[w * 2] <= this.stopLimit[w];
  }

  /** Margin calls fired and re-armed since the last drain (wallet ids). */
  private calls: number[] = [];
  private rearmed: number[] = [];

  /** The wallet reached its margin-call level: fires the call once (until it re-arms). */
  fireCall(w: number): void {
    if (this.called[w] !== 0) return;
    this.setCalled(w, true);
    this.calls.push(this.id[w]);
  }

  /** Re-arms a fired call once the margin level is back above its level plus the re-arm points. */
  rearmIfRecovered(w: number): void {
    if (this.marginLevel(w) < this.callLevel[w] + this.callRearm[w]) return;
    this.setCalled(w, false);
    this.rearmed.push(this.id[w]);
  }

  /** A wallet's margin-call level and stop-out level (percent), or null without a call level. */
  callTerms(walletId: number): { level: number; stopout: number } | null {
    const w = this.slotOfWallet.get(walletId);
    return w === undefined || !(this.callLevel[w] > 0) ? null : { level: this.callLevel[w], stopout: this.stopout[w] };
  }

  /** Arms (or, with false, marks fired) a wallet's margin call, as the database last recorded it. */
  setArmed(walletId: number, armed: boolean): void {
    const w = this.slotOfWallet.get(walletId);
    if (w !== undefined) this.setCalled(w, !armed);
  }

  /** Whether a stop-out close of the wallet is still in flight (the stop-out goes on). */
  stopOutInFlight(walletId: number): boolean {
    const w = this.slotOfWallet.get(walletId);
    return w !== undefined && this.inflight[w] !== 0;
  }

  /**
   * Wallets whose margin level fell to their margin-call level since the last drain (each once per crossing: the
   * call re-arms only after the level recovers above level + re-arm, which the sweep notices), and those re-armed.
   */
  drainCalls(): { called: number[]; rearmed: number[] } {
    const out = { called: this.calls, rearmed: this.rearmed };
    this.calls = [];
    this.rearmed = [];
    return out;
  }

  /** Fires (or, with false, re-arms) the wallet's margin call. */
  setCalled(w: number, on: boolean): void {
    this.called[w] = on ? 1 : 0;
    this.refreshLimit(w);
  }

  /** The margin level of a wallet in percent, or +∞ without used margin. */
  marginLevel(w: number): number {
    const margin = this.margin[w];
    return margin > 0 ? ((this.balance[w] + this.hot[w * 2]) / margin) * 100 : Number.POSITIVE_INFINITY;
  }

  /** A position joins the wallet: returns its index in the wallet's list. */
  attach(w: number, pid: number, margin: number, pl: number): number {
    const wl = this.list[w];
    const at = wl.length;
    wl.push(pid);
    this.margin[w] += margin;
    this.hot[w * 2] += pl;
    this.refreshLimit(w);
    return at;
  }

  /** Removes list entry `at` by moving the last one into it; returns the pid that moved into `at`, or -1. */
  detach(w: number, at: number): number {
    const wl = this.list[w];
    const last = wl.pop() as number;
    if (at === wl.length) return -1;
    wl[at] = last;
    return last;
  }

  /** Margin and P/L sums recomputed by the engine from the wallet's positions. */
  setSums(w: number, margin: number, pl: number): void {
    this.margin[w] = margin;
    this.hot[w * 2] = pl;
    this.refreshLimit(w);
  }

  setInflight(w: number, on: boolean): void {
    this.inflight[w] = on ? 1 : 0;
    this.refreshLimit(w);
  }

  /**
   * The P/L sum at or below which the wallet stops out. With used margin m > 0, balance b and stop-out s %, the rule
   * "equity ≤ 0 or equity ÷ m × 100 ≤ s" is equity ≤ s × m ÷ 100 (the first case is inside the second since s × m ≥ 0),
   * that is P/L ≤ s × m ÷ 100 − b. −∞ (never) without used margin or while a stop-out close is in flight.
   */
  refreshLimit(w: number): void {
    const margin = this.margin[w];
    const idle = this.inflight[w] !== 0 || !(margin > 0);
    const stop = idle ? -Infinity : (this.stopout[w] * TIE * margin) / 100 - this.balance[w];
    // An armed margin call raises the hot limit to its level, so the same tick loops find the wallet when it gets
    // there; the engine then tells a call from a stop-out by the stop limit.
    const call =
      idle || this.called[w] !== 0 || !(this.callLevel[w] > 0)
        ? -Infinity
        : (this.callLevel[w] * TIE * margin) / 100 - this.balance[w];
    this.stopLimit[w] = stop;
    this.hot[w * 2 + 1] = Math.max(call, stop);
  }

  nextStamp(): number {
    if (this.lastStamp === 0x7fffffff) {
      // Stamps would wrap: start over from a clean slate so an old stamp can never match.
      this.stamp.fill(0);
      this.lastStamp = 0;
    }
    return ++this.lastStamp;
  }

  private grow(): void {
    const cap = this.id.length * 2;
    this.hot = grow(this.hot, cap * 2);
    this.margin = grow(this.margin, cap);
    this.balance = grow(this.balance, cap);
    this.id = grow(this.id, cap);
    this.stopout = grow(this.stopout, cap);
    this.inflight = grow(this.inflight, cap);
    this.stopLimit = grow(this.stopLimit, cap);
    this.callLevel = grow(this.callLevel, cap);
    this.callRearm = grow(this.callRearm, cap);
    this.called = grow(this.called, cap);
    this.stamp = grow(this.stamp, cap);
    this.candidates = grow(this.candidates, cap);
    this.sum = grow(this.sum, cap);
    this.columns = { hot: this.hot, stamp: this.stamp, candidates: this.candidates };
  }
}
