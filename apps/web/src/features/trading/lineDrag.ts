/**
 * Dragging horizontal price lines with the pointer. lightweight-charts (5.x) draws price lines but cannot drag them,
 * so the chart's container listens to pointer events itself: a press within a few pixels of a draggable line takes
 * the pointer (the chart neither scrolls nor scales meanwhile), moves the line with it (coordinateToPrice), and on
 * release hands the new price to `onDrop`. A refused drop puts the line back where it was.
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
  /** Whether a drop changes anything (e.g. at least one price step away). */
  moved: (from: number, to: number) => boolean;
}

/** How close (in pixels) a press must be to grab a line: more for a finger. */
export const GRAB_PX = { mouse: 6, touch: 14 } as const;

interface Drag {
  id: string;
  from: number;
  to: number;
  pointerId: number;
}

export interface PointerLike {
  /** Pixel row relative to the pane's top. */
  y: number;
  pointerId: number;
  pointerType: string;
  preventDefault: () => void;
  stopPropagation: () => void;
}

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
    this.drag = { id: line.id, from: line.price, to: line.price, pointerId: e.pointerId };
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
    const price = this.a.yToPrice(e.y);
    if (price === null || !(price > 0)) return;
    drag.to = price;
    this.a.moveLine(drag.id, price);
  }

  /** Ends the drag; a cancelled pointer (or no real move) puts the line back without asking the server. */
  up(e: PointerLike, cancelled = false): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    e.preventDefault();
    e.stopPropagation();
    this.drag = null;
    this.a.setChartInteractive(true);
    this.a.setCursor('');
    if (cancelled || !this.a.moved(drag.from, drag.to)) {
      this.a.moveLine(drag.id, drag.from);
      return;
    }
    this.a.onDrop(drag.id, drag.to).catch(() => this.a.moveLine(drag.id, drag.from));
  }
}
