/**
 * Dragging horizontal price lines with the pointer. lightweight-charts (5.x) draws price lines but cannot drag them,
 * so the chart's container listens to pointer events itself: a press within a few pixels of a draggable line takes
 * the pointer (the chart neither scrolls nor scales meanwhile), moves the line as far as the pointer moves
 * (coordinateToPrice), and on release hands the new price to `onDrop`. A refused drop puts the line back where it was.
 *
 * A pixel of a daily chart spans many price steps, so the pointer alone cannot reach every price: the line always
 * stands on a whole step of the instrument (its digits), with Shift held each pixel moves it one step, and the arrow
 * keys move it one step (ten with Shift) while it is held. Escape puts it back.
 */

export interface DraggableLine {
  id: string;
  price: number;
}

export interface LineDragAdapter {
  /** The draggable lines of the moment. */
  lines: () => readonly DraggableLine[];
  /** Pixel row of a price in the pane (null when off the scale), and back. */
  priceToY: (price: number) => number | null;
  yToPrice: (y: number) => number | null;
  /** Moves the drawn line (no server call). */
  moveLine: (id: string, price: number) => void;
  /** Turns the chart's own scrolling and scaling off during a drag, and back on. */
  setChartInteractive: (on: boolean) => void;
  /** The pointer's look, and the line under it (empty when none), which tests and tools can read. */
  setCursor: (cursor: string, lineId?: string) => void;
  /** The new price of a dropped line; a rejection snaps it back. */
  onDrop: (id: string, price: number) => Promise<unknown>;
  /** The instrument's price digits: a line moves in steps of 10^-digits (at most 8 digits). */
  digits: () => number;
}

/** How close (in pixels) a press must be to grab a line: more for a finger. */
export const GRAB_PX = { mouse: 6, touch: 14 } as const;

interface Drag {
  id: string;
  from: number;
  to: number;
  pointerId: number;
  /** The row and price the pointer's movement counts from (set again when the pace changes or a key moves it). */
  anchorY: number;
  anchorPrice: number;
  /** One step a pixel (Shift held). */
  fine: boolean;
  lastY: number;
}

export interface PointerLike {
  /** Pixel row relative to the pane's top. */
  y: number;
  pointerId: number;
  pointerType: string;
  /** Shift held: the line moves one price step a pixel. */
  fine?: boolean;
  preventDefault: () => void;
  stopPropagation: () => void;
}

const stepOf = (digits: number) => 10 ** -Math.min(Math.max(digits, 0), 8);
/** A price on a whole step of the instrument. */
export const snapPrice = (price: number, digits: number): number =>
  Number(price.toFixed(Math.min(Math.max(digits, 0), 8)));

export class LineDragController {
  private drag: Drag | null = null;

  constructor(private readonly a: LineDragAdapter) {}

  get dragging(): string | null {
    return this.drag?.id ?? null;
  }

  /** The draggable line nearest to the row, within grabbing distance. */
  lineAt(y: number, pointerType: string): DraggableLine | null {
    const reach = pointerType === 'touch' ? GRAB_PX.touch : GRAB_PX.mouse;
    let best: { line: DraggableLine; distance: number } | null = null;
    for (const line of this.a.lines()) {
      const at = this.a.priceToY(line.price);
      if (at === null) continue;
      const distance = Math.abs(at - y);
      if (distance <= reach && (!best || distance < best.distance)) best = { line, distance };
    }
    return best?.line ?? null;
  }

  /** True when the press grabbed a line (the event is then the drag's, not the chart's). */
  down(e: PointerLike): boolean {
    if (this.drag) return true;
    const line = this.lineAt(e.y, e.pointerType);
    if (!line) return false;
    e.preventDefault();
    e.stopPropagation();
    this.drag = {
      id: line.id,
      from: line.price,
      to: line.price,
      pointerId: e.pointerId,
      anchorY: e.y,
      anchorPrice: line.price,
      fine: e.fine === true,
      lastY: e.y,
    };
    this.a.setChartInteractive(false);
    this.a.setCursor('ns-resize', line.id);
    return true;
  }

  move(e: PointerLike): void {
    const drag = this.drag;
    if (!drag) {
      const line = this.lineAt(e.y, e.pointerType);
      this.a.setCursor(line ? 'ns-resize' : '', line?.id);
      return;
    }
    if (e.pointerId !== drag.pointerId) return;
    e.preventDefault();
    e.stopPropagation();
    drag.lastY = e.y;
    const fine = e.fine === true;
    // A change of pace starts counting afresh from where the line is, so the line never jumps.
    if (fine !== drag.fine) this.anchor(drag, fine);
    let price: number | null;
    if (fine) price = drag.anchorPrice + (drag.anchorY - e.y) * stepOf(this.a.digits());
    else {
      // As far as the pointer moved, not to the pointer: the few pixels between the press and the line stay.
      const now = this.a.yToPrice(e.y);
      const then = this.a.yToPrice(drag.anchorY);
      price = now === null || then === null ? null : drag.anchorPrice + (now - then);
    }
    if (price !== null) this.place(drag, price);
  }

  /** Moves a held line by whole steps (an arrow key); false when no line is held. */
  nudge(steps: number): boolean {
    const drag = this.drag;
    if (!drag) return false;
    this.place(drag, drag.to + steps * stepOf(this.a.digits()));
    this.anchor(drag, drag.fine);
    return true;
  }

  /** Puts a held line back where it was, asking nothing (Escape). */
  cancel(): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    this.end(drag, true);
  }

  private anchor(drag: Drag, fine: boolean): void {
    drag.fine = fine;
    drag.anchorY = drag.lastY;
    drag.anchorPrice = drag.to;
  }

  private place(drag: Drag, price: number): void {
    const snapped = snapPrice(price, this.a.digits());
    if (!(snapped > 0) || snapped === drag.to) return;
    drag.to = snapped;
    this.a.moveLine(drag.id, snapped);
  }

  /** Ends the drag; a cancelled pointer (or no real move) puts the line back without asking the server. */
  up(e: PointerLike, cancelled = false): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    e.preventDefault();
    e.stopPropagation();
    this.drag = null;
    this.end(drag, cancelled);
  }

  private end(drag: Drag, cancelled: boolean): void {
    this.a.setChartInteractive(true);
    this.a.setCursor('');
    const moved = Math.abs(drag.from - drag.to) >= stepOf(this.a.digits()) / 2;
    if (cancelled || !moved) {
      this.a.moveLine(drag.id, drag.from);
      return;
    }
    this.a.onDrop(drag.id, drag.to).catch(() => this.a.moveLine(drag.id, drag.from));
  }
}
