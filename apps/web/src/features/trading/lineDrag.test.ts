import { describe, expect, it, vi } from 'vitest';
import { chartLines, dragPrice } from './chartLines.ts';
import { LineDragController, type LineDragAdapter, type PointerLike } from './lineDrag.ts';
import { orderFixture, pendingOrderFixture } from './testing.ts';

/** A pane where price p sits at row (2 − p) × 1000: 1.08 at 920, 1.09 at 910. */
function setup(onDrop: LineDragAdapter['onDrop'] = async () => undefined) {
  const moves: Array<[string, number]> = [];
  const adapter: LineDragAdapter = {
    lines: () => [
      { id: 'loss-1', price: 1.08 },
      { id: 'pending-2', price: 1.09 },
    ],
    priceToY: (p) => (2 - p) * 1000,
    yToPrice: (y) => 2 - y / 1000,
    moveLine: (id, price) => moves.push([id, Number(price.toFixed(5))]),
    setChartInteractive: vi.fn(),
    setCursor: vi.fn(),
    onDrop: vi.fn(onDrop),
    digits: () => 5,
  };
  return { controller: new LineDragController(adapter), adapter, moves };
}

const pointer = (y: number, pointerType = 'mouse', pointerId = 1, fine = false): PointerLike => ({
  y,
  pointerId,
  pointerType,
  fine,
  preventDefault: vi.fn(),
  stopPropagation: vi.fn(),
});

describe('LineDragController', () => {
  it('grabs the nearest line within a few pixels (more for a finger) and leaves other presses to the chart', () => {
    const { controller, adapter } = setup();
    const far = pointer(930);
    expect(controller.down(far)).toBe(false);
    expect(far.preventDefault).not.toHaveBeenCalled();
    expect(controller.lineAt(925, 'mouse')?.id).toBe('loss-1');
    expect(controller.lineAt(927, 'mouse')).toBeNull();
    expect(controller.lineAt(933, 'touch')?.id).toBe('loss-1');
    const press = pointer(918);
    expect(controller.down(press)).toBe(true);
    expect(press.preventDefault).toHaveBeenCalled();
    expect(controller.dragging).toBe('loss-1');
    expect(adapter.setChartInteractive).toHaveBeenCalledWith(false);
  });

  it('moves the line with the pointer and hands the new price over on release', async () => {
    const { controller, adapter, moves } = setup();
    controller.down(pointer(920));
    controller.move(pointer(925));
    controller.move(pointer(930));
    controller.up(pointer(930));
    expect(moves).toEqual([
      ['loss-1', 1.075],
      ['loss-1', 1.07],
    ]);
    expect(adapter.onDrop).toHaveBeenCalledWith('loss-1', expect.closeTo(1.07, 8));
    expect(adapter.setChartInteractive).toHaveBeenLastCalledWith(true);
    expect(controller.dragging).toBeNull();
  });

  it('snaps back when the server refuses', async () => {
    const { controller, moves } = setup(() => Promise.reject(new Error('refused')));
    controller.down(pointer(910));
    controller.move(pointer(900));
    controller.up(pointer(900));
    await Promise.resolve();
    await Promise.resolve();
    expect(moves.at(-1)).toEqual(['pending-2', 1.09]);
  });

  it('asks nothing for a click without a move, a cancelled pointer or another pointer', () => {
    const { controller, adapter, moves } = setup();
    controller.down(pointer(920));
    controller.move(pointer(940, 'mouse', 2));
    controller.up(pointer(920, 'mouse', 2));
    expect(controller.dragging).toBe('loss-1');
    controller.up(pointer(920));
    controller.down(pointer(920));
    controller.move(pointer(950));
    controller.up(pointer(950), true);
    expect(adapter.onDrop).not.toHaveBeenCalled();
    expect(moves.at(-1)).toEqual(['loss-1', 1.08]);
  });

  it('moves as far as the pointer moved, so the few pixels between the press and the line stay', () => {
    const { controller, adapter, moves } = setup();
    controller.down(pointer(923));
    controller.move(pointer(933));
    controller.up(pointer(933));
    expect(moves).toEqual([['loss-1', 1.07]]);
    expect(adapter.onDrop).toHaveBeenCalledWith('loss-1', 1.07);
  });

  it("reaches every price at the instrument's digits, however many steps a pixel spans", async () => {
    // A daily chart: 0.004 a pixel, so the pointer alone moves 400 steps at a time.
    const moves: Array<[string, number]> = [];
    const onDrop = vi.fn(async () => undefined);
    const controller = new LineDragController({
      lines: () => [{ id: 'loss-1', price: 1.08 }],
      priceToY: (p) => (2 - p) * 250,
      yToPrice: (y) => 2 - y / 250,
      moveLine: (id, price) => moves.push([id, price]),
      setChartInteractive: vi.fn(),
      setCursor: vi.fn(),
      onDrop,
      digits: () => 5,
    });
    controller.down(pointer(230));
    controller.move(pointer(231.3));
    // Every position is on a whole step (no 1.0747999999).
    expect(moves.at(-1)).toEqual(['loss-1', 1.0748]);
    // Shift: a step a pixel from where the line is.
    controller.move(pointer(234, 'mouse', 1, true));
    controller.move(pointer(237, 'mouse', 1, true));
    expect(moves.at(-1)).toEqual(['loss-1', 1.07477]);
    // An arrow key: one step more (ten with Shift).
    expect(controller.nudge(1)).toBe(true);
    expect(moves.at(-1)).toEqual(['loss-1', 1.07478]);
    controller.nudge(-10);
    expect(moves.at(-1)).toEqual(['loss-1', 1.07468]);
    // Shift let go: the pointer moves it at the chart's pace again, from where it is.
    controller.move(pointer(237));
    controller.move(pointer(238));
    expect(moves.at(-1)).toEqual(['loss-1', 1.07068]);
    controller.up(pointer(238));
    expect(onDrop).toHaveBeenCalledWith('loss-1', 1.07068);
  });

  it('puts the line back on Escape, asking nothing', () => {
    const { controller, adapter, moves } = setup();
    expect(controller.nudge(1)).toBe(false);
    controller.down(pointer(920));
    controller.move(pointer(930));
    controller.cancel();
    expect(controller.dragging).toBeNull();
    expect(moves.at(-1)).toEqual(['loss-1', 1.08]);
    controller.up(pointer(930));
    expect(adapter.onDrop).not.toHaveBeenCalled();
    expect(adapter.setChartInteractive).toHaveBeenLastCalledWith(true);
  });

  it('shows a resize cursor over a draggable line', () => {
    const { controller, adapter } = setup();
    controller.move(pointer(921));
    expect(adapter.setCursor).toHaveBeenLastCalledWith('ns-resize', 'loss-1');
    controller.move(pointer(960));
    expect(adapter.setCursor).toHaveBeenLastCalledWith('', undefined);
  });
});

describe('chartLines', () => {
  const texts = {
    entry: () => 'entry',
    loss: () => 'sl',
    profit: () => 'tp',
    pending: (_: unknown, which: string) => which,
  };

  it("draws the instrument's entries, SL, TP and pending prices; the SL of a trailing stop stays the server's", () => {
    const lines = chartLines(
      'EUR_USD',
      [
        orderFixture({ id: 1, loss: '1.07', profit: '1.1' }),
        orderFixture({ id: 2, loss: '1.075', trailing_distance: '0.002' }),
        orderFixture({ id: 3, instrument: 'USD_JPY' }),
      ],
      [
        pendingOrderFixture({ id: 4, order_type: 'stop_limit', price: '1.09', limit_price: '1.088' }),
        pendingOrderFixture({ id: 5, status: 'filled' }),
      ],
      texts,
    );
    expect(lines.map((l) => [l.id, l.price, l.target ?? null])).toEqual([
      ['entry-1', 1.08, null],
      ['loss-1', 1.07, { kind: 'loss', orderId: 1 }],
      ['profit-1', 1.1, { kind: 'profit', orderId: 1 }],
      ['entry-2', 1.08, null],
      ['loss-2', 1.075, null],
      ['pending-4', 1.09, { kind: 'price', pendingOrderId: 4 }],
      ['pending-limit-4', 1.088, { kind: 'limitPrice', pendingOrderId: 4 }],
    ]);
  });

  it("rounds a dragged price to the instrument's digits", () => {
    expect(dragPrice(1.0712345678, 5)).toBe('1.07123');
    expect(dragPrice(151.2099999, 3)).toBe('151.21');
    expect(dragPrice(0.00000001234, 12)).toBe('0.00000001');
  });
});
