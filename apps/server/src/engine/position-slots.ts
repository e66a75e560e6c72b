import { Block, grow, OPEN } from './risk-block.ts';

/**
 * The risk engine's position storage (risk-block.ts describes the layout): the blocks of entries, and each position
 * by stable id (pid), with where its entry currently lives, its order id, its levels as set and its closing state as
 * columns indexed by pid, plus the order id → pid index. Kept together so that a pid always points at its entry:
 * when a removal moves a block's last entry into the hole, the moved pid's index is fixed here. Freed pids are
 * reused, last freed first, so the columns stay as long as the most positions ever open at once.
 *
 * The columns are public and read directly by the engine; growing replaces them, so a loop reads them into locals
 * once per call and must not hold them across an add.
 */
export class PositionSlots {
  /** All blocks (for the sweep), and the blocks of each instrument (for its ticks). */
  readonly blocks: Block[] = [];
  readonly byInstrument: Block[][] = [];

  /** Order id. */
  order = new Float64Array(1024);
  /** Index of the entry's block in `blocks`, and of the entry in that block. */
  block = new Int32Array(1024);
  index = new Int32Array(1024);
  /** Index of the pid in its wallet's list (risk-wallets.ts); kept by the engine. */
  inWallet = new Int32Array(1024);
  /** Take-profit and stop-loss as set; NaN for none. */
  tp = new Float64Array(1024);
  sl = new Float64Array(1024);
  /** OPEN, CLOSING or CLOSING_STOPOUT (risk-block.ts). */
  closing = new Uint8Array(1024);

  private n = 0;
  private readonly free: number[] = [];
  private next = 0;
  private readonly byOrder = new Map<number, number>();

  /** Number of positions stored. */
  get size(): number {
    return this.n;
  }

  /** The pid of an order's position, or undefined when it is not stored. */
  pidOf(orderId: number): number | undefined {
    return this.byOrder.get(orderId);
  }

  has(orderId: number): boolean {
    return this.byOrder.has(orderId);
  }

  /** Makes room for instruments 0..count-1 (an empty block list each). */
  addInstruments(count: number): void {
    while (this.byInstrument.length < count) this.byInstrument.push([]);
  }

  /**
   * Takes a pid for a new position of `orderId` and an empty entry for it in the block of (instrument, side,
   * conversion slot); the caller fills the entry, the levels and the closing state, then calls setBand.
   */
  add(orderId: number, instrument: number, sign: 1 | -1, conv: number): number {
    const pid = this.free.length > 0 ? (this.free.pop() as number) : this.next++;
    if (pid === this.order.length) this.grow();
    const b = this.blockOf(instrument, sign, conv);
    this.order[pid] = orderId;
    this.block[pid] = b;
    this.index[pid] = this.blocks[b].push();
    this.byOrder.set(orderId, pid);
    this.n++;
    return pid;
  }

  /** Removes a position's entry from its block and gives its pid back. */
  remove(orderId: number, pid: number): void {
    const moved = this.blocks[this.block[pid]].remove(this.index[pid]);
    if (moved >= 0) this.index[moved] = this.index[pid];
    this.byOrder.delete(orderId);
    this.free.push(pid);
    this.n--;
  }

  setClosing(pid: number, state: number): void {
    this.closing[pid] = state;
    this.setBand(pid);
  }

  /**
   * The block band of a position from its levels: a buy closes at the bid, reaching its stop-loss from above and its
   * take-profit from below; a sell closes at the ask, reaching its take-profit from above and its stop-loss from
   * below. A missing level or a position already closing leaves that side open (±∞), so the loops skip it.
   */
  setBand(pid: number): void {
    const blk = this.blocks[this.block[pid]];
    const i = this.index[pid];
    const tp = this.tp[pid];
    const sl = this.sl[pid];
    if (this.closing[pid] !== OPEN) blk.setBand(i, -Infinity, Infinity);
    else if (blk.sign > 0) blk.setBand(i, sl === sl ? sl : -Infinity, tp === tp ? tp : Infinity);
    else blk.setBand(i, tp === tp ? tp : -Infinity, sl === sl ? sl : Infinity);
  }

  /** Index in `blocks` of the block for (instrument, side, conversion slot), created on first use. */
  private blockOf(instrument: number, sign: 1 | -1, conv: number): number {
    const list = this.byInstrument[instrument];
    for (let b = 0; b < list.length; b++) {
      if (list[b].sign === sign && list[b].conv === conv) return list[b].id;
    }
    const blk = new Block(this.blocks.length, instrument, sign, conv);
    list.push(blk);
    this.blocks.push(blk);
    return blk.id;
  }

  private grow(): void {
    const cap = this.order.length * 2;
    this.order = grow(this.order, cap);
    this.block = grow(this.block, cap);
    this.index = grow(this.index, cap);
    this.inWallet = grow(this.inWallet, cap);
    this.tp = grow(this.tp, cap);
    this.sl = grow(this.sl, cap);
    this.closing = grow(this.closing, cap);
  }
}
