import { describe, expect, it } from 'vitest';
import { ConversionGraph } from './conversion.ts';
import type { InstrumentRow } from './instruments.ts';
import { PriceBook } from './price-book.ts';

const row = (name: string, category: InstrumentRow['category'] = 'forex'): InstrumentRow => {
  const [base, quote] = name.split('_');
  return { name, base, quote, category } as InstrumentRow;
};

function setup(names: string[], rates: ReadonlyMap<string, number> = new Map([['USD', 1]])) {
  const book = new PriceBook();
  const state = { list: names.map((n) => row(n)) as readonly InstrumentRow[], rates };
  const price = (name: string, mid: number) =>
    book.apply([{ name, bid: mid, ask: mid, closeoutBid: mid, closeoutAsk: mid, time: 1 }]);
  const graph = new ConversionGraph({ book, instruments: () => state.list, usdRates: () => state.rates });
  return { book, state, price, graph };
}

describe('conversion paths', () => {
  it('uses a direct pair, or its inverse', () => {
    const { price, graph } = setup(['USD_JPY', 'EUR_USD']);
    price('USD_JPY', 150);
    price('EUR_USD', 1.1);
    expect(graph.rate('JPY', 'USD')).toBe(150);
    expect(graph.rate('USD', 'JPY')).toBeCloseTo(1 / 150, 12);
    expect(graph.rate('USD', 'EUR')).toBe(1.1);
    expect(graph.rate('EUR', 'USD')).toBeCloseTo(1 / 1.1, 12);
    expect(graph.rate('EUR', 'EUR')).toBe(1);
    expect(graph.pathOf('USD', 'JPY')).toEqual([{ name: 'USD_JPY', rate: false, inverse: false }]);
  });

  it('crosses through USD: a EUR or GBP wallet gets CNH and CAD', () => {
    const { price, graph } = setup(['USD_CNH', 'EUR_USD', 'GBP_USD', 'USD_CAD']);
    price('USD_CNH', 7.2);
    price('EUR_USD', 1.1);
    price('GBP_USD', 1.25);
    price('USD_CAD', 1.36);
    // CNH per EUR = USD per EUR × CNH per USD
    expect(graph.rate('CNH', 'EUR')).toBeCloseTo(1.1 * 7.2, 12);
    expect(graph.rate('CAD', 'GBP')).toBeCloseTo(1.25 * 1.36, 12);
    expect(graph.rate('EUR', 'CNH')).toBeCloseTo(1 / (1.1 * 7.2), 12);
    expect(graph.pathOf('EUR', 'CNH')).toEqual([
      { name: 'EUR_USD', rate: false, inverse: false },
      { name: 'USD_CNH', rate: false, inverse: false },
    ]);
  });

  it('follows a longer chain of instruments and takes the shortest one', () => {
    const { price, graph } = setup(['AAA_BBB', 'BBB_CCC', 'DDD_CCC', 'AAA_EEE', 'EEE_FFF', 'FFF_GGG', 'GGG_DDD']);
    for (const [n, m] of [
      ['AAA_BBB', 2],
      ['BBB_CCC', 3],
      ['DDD_CCC', 4],
      ['AAA_EEE', 1],
      ['EEE_FFF', 1],
      ['FFF_GGG', 1],
      ['GGG_DDD', 1],
    ] as const)
      price(n, m);
    // AAA → BBB → CCC → DDD: 2 × 3 / 4 (three hops rather than four through EEE, FFF, GGG)
    expect(graph.rate('DDD', 'AAA')).toBeCloseTo(1.5, 12);
    expect(graph.pathOf('AAA', 'DDD')?.map((s) => s.name)).toEqual(['AAA_BBB', 'BBB_CCC', 'DDD_CCC']);
  });

  it('prefers a forex pair to another instrument of the same length', () => {
    const { state, price, graph } = setup([]);
    state.list = [row('XBT_EUR', 'crypto'), row('XBT_USD', 'crypto'), row('EUR_USD'), row('CHF_USD')];
    for (const n of ['XBT_EUR', 'XBT_USD', 'EUR_USD', 'CHF_USD']) price(n, 1);
    expect(graph.pathOf('EUR', 'USD')?.map((s) => s.name)).toEqual(['EUR_USD']);
    expect(graph.pathOf('EUR', 'CHF')?.map((s) => s.name)).toEqual(['EUR_USD', 'CHF_USD']);
  });

  it('bridges with the USD rates only what no instrument links (HKD), and prefers instruments otherwise', () => {
    const { state, price, graph } = setup(
      ['EUR_USD', 'HK33_HKD'],
      new Map([
        ['USD', 1],
        ['HKD', 7.8],
        ['EUR', 0.5],
      ]),
    );
    price('EUR_USD', 1.1);
    price('HK33_HKD', 19500);
    expect(graph.rate('HKD', 'USD')).toBe(7.8);
    expect(graph.rate('HKD', 'EUR')).toBeCloseTo(1.1 * 7.8, 12);
    expect(graph.rate('USD', 'HKD')).toBeCloseTo(1 / 7.8, 12);
    // EUR/USD is priced: the (deliberately wrong) API rate of 0.5 is not used.
    expect(graph.rate('USD', 'EUR')).toBe(1.1);
    state.rates = new Map([['USD', 1]]);
    expect(graph.rate('HKD', 'EUR')).toBeNull();
  });

  it('multiplies the current prices along a path found once', () => {
    const { price, graph } = setup(['EUR_USD', 'USD_CNH']);
    price('EUR_USD', 1.1);
    price('USD_CNH', 7.2);
    const path = graph.pathOf('EUR', 'CNH');
    expect(graph.rate('CNH', 'EUR')).toBeCloseTo(7.92, 12);
    price('USD_CNH', 7.3);
    expect(graph.rate('CNH', 'EUR')).toBeCloseTo(1.1 * 7.3, 12);
    expect(graph.pathOf('EUR', 'CNH')).toBe(path);
  });

  it('finds new paths when instruments change, a new instrument gets its first price, or the USD rates change', () => {
    const { state, price, graph } = setup(['EUR_USD', 'USD_CAD']);
    price('EUR_USD', 1.1);
    expect(graph.rate('CAD', 'EUR')).toBeNull(); // USD_CAD has no price yet
    price('USD_CAD', 1.35);
    expect(graph.rate('CAD', 'EUR')).toBeCloseTo(1.1 * 1.35, 12);
    // Staff rename an instrument: the registry hands out a new list.
    state.list = [row('EUR_USD'), row('CAD_USD')];
    price('CAD_USD', 0.74);
    expect(graph.pathOf('EUR', 'CAD')?.map((s) => s.name)).toEqual(['EUR_USD', 'CAD_USD']);
    expect(graph.rate('SEK', 'EUR')).toBeNull();
    state.rates = new Map([
      ['USD', 1],
      ['SEK', 10],
    ]);
    expect(graph.rate('SEK', 'EUR')).toBeCloseTo(11, 12);
  });

  it('knows currencies instruments or USD rates name, and nothing else', () => {
    const { price, graph } = setup(['EUR_USD', 'USD_CNH'], new Map([['HKD', 7.8]]));
    price('EUR_USD', 1.1);
    expect(graph.knows('CNH')).toBe(true); // unpriced, still a currency the product trades
    expect(graph.knows('HKD')).toBe(true);
    expect(graph.knows('XYZ')).toBe(false);
    expect(graph.rate('XYZ', 'EUR')).toBeNull();
  });
});
