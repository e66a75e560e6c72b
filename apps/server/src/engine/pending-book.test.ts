import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reaches, type PendingTrigger } from '@platform/domain';
import { PendingBook } from './pending-book.ts';

const TRIGGERS: PendingTrigger[] = ['ask_le', 'ask_ge', 'bid_ge', 'bid_le'];

describe('PendingBook', () => {
  it('pops only what a tick reaches, on its instrument, earliest trigger first', () => {
    const book = new PendingBook();
    book.add(1, 7, 'ask_le', 1.08); // buy limit
    book.add(2, 7, 'ask_le', 1.09);
    book.add(3, 7, 'ask_ge', 1.12); // buy stop
    book.add(4, 7, 'bid_le', 1.05); // sell stop
    book.add(5, 8, 'ask_le', 1.5); // another instrument
    const out: number[] = [];
    book.tick(7, 1.1, 1.1001, out);
    expect(out).toEqual([]);
    book.tick(7, 1.0849, 1.085, out);
    expect(out).toEqual([2]);
    book.tick(7, 1.04, 1.0401, out);
    expect(out).toEqual([2, 1, 4]);
    expect(book.size).toBe(2);
    expect(book.idsOn(8)).toEqual([5]);
  });

  it('forgets a removed or moved order and fills equal prices in arrival order', () => {
    const book = new PendingBook();
    book.add(1, 1, 'bid_ge', 2);
    book.add(2, 1, 'bid_ge', 2);
    book.add(3, 1, 'bid_ge', 2);
    book.remove(2);
    book.add(1, 1, 'bid_ge', 3); // moved away
    const out: number[] = [];
    book.tick(1, 2.5, 2.6, out);
    expect(out).toEqual([3]);
    book.tick(1, 3, 3.1, out);
    expect(out).toEqual([3, 1]);
    expect(book.size).toBe(0);
  });

  it('matches a scan of every order for any sequence of adds, removes and ticks', () => {
    const op = fc.oneof(
      fc.record({
        k: fc.constant('add' as const),
        id: fc.integer({ min: 1, max: 40 }),
        trigger: fc.constantFrom(...TRIGGERS),
        price: fc.integer({ min: 90, max: 110 }),
      }),
      fc.record({ k: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 40 }) }),
      fc.record({
        k: fc.constant('tick' as const),
        bid: fc.integer({ min: 85, max: 115 }),
        spread: fc.integer({ min: 0, max: 3 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const book = new PendingBook();
        const model = new Map<number, { trigger: PendingTrigger; price: number }>();
        for (const o of ops) {
          if (o.k === 'add') {
            book.add(o.id, 0, o.trigger, o.price);
            model.set(o.id, { trigger: o.trigger, price: o.price });
          } else if (o.k === 'remove') {
            expect(book.remove(o.id)).toBe(model.delete(o.id));
          } else {
            const q = { bid: o.bid, ask: o.bid + o.spread };
            const out: number[] = [];
            book.tick(0, q.bid, q.ask, out);
            const expected = [...model].filter(([, e]) => reaches(e.trigger, e.price, q)).map(([id]) => id);
            expect(out.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
            for (const id of out) model.delete(id);
          }
          expect(book.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
