import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { plainInstrumentSearch, useInstrumentSearch } from './instrumentSearch.ts';
import { instrumentsFixture } from './testing.ts';

describe('instrument search before and after the fuzzy search has loaded', () => {
  const plain = plainInstrumentSearch(instrumentsFixture());

  it('matches the name, however written, the base, the quote and the alias at once', () => {
    expect(plain('eur/usd').map((i) => i.name)).toEqual(['EUR_USD']);
    expect(plain('EUR USD').map((i) => i.name)).toEqual(['EUR_USD']);
    expect(plain('bitcoin').map((i) => i.name)).toEqual(['BTC_USD']);
    expect(plain('eur').map((i) => i.name)).toEqual(expect.arrayContaining(['EUR_USD', 'EUR_GBP', 'EUR_JPY']));
    expect(plain('  ')).toEqual([]);
  });

  it('answers with the plain match first, then fuzzily (a typo is found) once the library has arrived', async () => {
    const instruments = instrumentsFixture();
    const { result } = renderHook(({ q }) => useInstrumentSearch(instruments, q), { initialProps: { q: 'Aple' } });
    // No plain match for the typo; the fuzzy search finds Apple when it has loaded.
    expect(result.current).toEqual([]);
    await waitFor(() => expect(result.current.map((i) => i.name)).toContain('AAPL_USD'));
  });

  it('loads nothing and finds nothing for an empty query', () => {
    const { result } = renderHook(() => useInstrumentSearch(instrumentsFixture(), ''));
    expect(result.current).toEqual([]);
  });
});
