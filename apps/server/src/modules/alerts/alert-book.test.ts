import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AlertBook, type AlertEntry } from './alert-book.ts';

const met = (e: AlertEntry, bid: number, ask: number) => {
  const p = e.side === 'bid' ? bid : ask;
  return e.condition === 'above' ? p >= e.price : p <= e.price;
};

const entry = fc.record({
  id: fc.integer({ min: 1, max: 60 }),
  instrumentId: fc.integer({ min: 1, max: 3 }),
  side: fc.constantFrom('bid' as const, 'ask' as const),
  condition: fc.constantFrom('above' as const, 'below' as const),
  price: fc.integer({ min: 90, max: 110 }).map((n) => n / 100),
});
const op = fc.oneof(
  entry.map((e) => ({ kind: 'upsert' as const, e })),
  fc.integer({ min: 1, max: 60 }).map((id) => ({ kind: 'remove' as const, id })),
  fc
    .record({
      instrumentId: fc.integer({ min: 1, max: 3 }),
      bid: fc.integer({ min: 85, max: 115 }).map((n) => n / 100),
      spread: fc.integer({ min: 0, max: 3 }).map((n) => n / 100),
    })
    .map((q) => ({ kind: 'tick' as const, ...q })),
);

describe('AlertBook', () => {
  it('a tick takes exactly the alerts its quote meets, once, as a scan of every alert would', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.boolean(), (ops, bulk) => {
        const book = new AlertBook();
        const model = new Map<number, AlertEntry>();
        if (bulk) {
          // Start from a bulk load of the first upserts (the start and takeover path).
          const first = ops.filter((o) => o.kind === 'upsert').map((o) => o.e);
          book.load(first);
          for (const e of first) if (!model.has(e.id)) model.set(e.id, e);
        }
        for (const o of ops) {
          if (o.kind === 'upsert') {
            book.upsert(o.e);
            model.set(o.e.id, o.e);
          } else if (o.kind === 'remove') {
            expect(book.remove(o.id)?.id).toBe(model.get(o.id)?.id);
            model.delete(o.id);
          } else {
            const ask = o.bid + o.spread;
            const want = [...model.values()]
              .filter((e) => e.instrumentId === o.instrumentId && met(e, o.bid, ask))
              .map((e) => e.id)
              .sort((a, b) => a - b);
            const got = book
              .takeCrossed(o.instrumentId, o.bid, ask)
              .map((e) => e.id)
              .sort((a, b) => a - b);
            expect(got).toEqual(want);
            for (const id of want) model.delete(id);
          }
          expect(book.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('loads in steps to the same book as in one go, pausing between steps', async () => {
    const entries = fc.sample(entry, 500).map((e, i) => ({ ...e, id: i + 1 }));
    const whole = new AlertBook();
    whole.load(entries);
    const stepped = new AlertBook();
    let pauses = 0;
    await stepped.loadInSteps(entries, async () => {
      pauses++;
    });
    expect(pauses).toBeGreaterThan(1);
    expect(stepped.size).toBe(whole.size);
    for (const id of [1, 2, 3]) {
      const bid = 0.9 + id / 20;
      const ids = (b: AlertBook) => b.takeCrossed(id, bid, bid + 0.01).map((e) => e.id);
      expect(ids(stepped)).toEqual(ids(whole));
    }
  });

  it('an edit moves an alert: the old level no longer fires it', () => {
    const book = new AlertBook();
    book.upsert({ id: 1, instrumentId: 7, side: 'bid', condition: 'above', price: 1.1 });
    book.upsert({ id: 1, instrumentId: 7, side: 'ask', condition: 'below', price: 1.0 });
    expect(book.takeCrossed(7, 1.2, 1.2)).toEqual([]);
    expect(book.takeCrossed(7, 0.99, 1.0).map((e) => e.id)).toEqual([1]);
    expect(book.size).toBe(0);
    expect(book.instruments()).toEqual([]);
  });
});
