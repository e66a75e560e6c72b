import { describe, expect, it } from 'vitest';
import { createInstrumentSearch } from './search.ts';
import { instrumentsFixture } from './testing.ts';

describe('instrument search', () => {
  const search = createInstrumentSearch(instrumentsFixture());

  it('finds every EUR pair for "eur"', () => {
    const names = search('eur').map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['EUR_USD', 'EUR_GBP', 'EUR_JPY']));
    expect(names).not.toContain('AAPL_USD');
  });

  it('matches the alias and tolerates a typo', () => {
    expect(search('bitcoin').map((i) => i.name)).toContain('BTC_USD');
    expect(search('Aple').map((i) => i.name)).toContain('AAPL_USD');
  });

  it('returns nothing for an empty query', () => {
    expect(search('  ')).toEqual([]);
  });
});
