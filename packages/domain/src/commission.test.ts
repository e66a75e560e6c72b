import { describe, expect, it } from 'vitest';
import { chargesAt, commissionOf, lotsOf } from './commission.ts';

describe('commissions', () => {
  it('charges per lot in US dollars, converted to the wallet currency', () => {
    const terms = { rate: '7', basis: 'lot', charge: 'both' } as const;
    // 0.3 lot of EUR/USD on a USD wallet: 2.10 USD.
    expect(
      commissionOf({
        terms,
        category: 'forex',
        amount: '30000',
        price: '1.1',
        quoteConversion: '1',
        usdConversion: '1',
      }).toString(),
    ).toBe('2.1');
    // The same on a EUR wallet at 1.25 USD per EUR: 1.68 EUR.
    expect(
      commissionOf({
        terms,
        category: 'forex',
        amount: '30000',
        price: '1.25',
        quoteConversion: '1.25',
        usdConversion: '1.25',
      }).toString(),
    ).toBe('1.68');
    // A lot of gold is 100 ounces: 50 ounces are half a lot.
    expect(
      commissionOf({
        terms,
        category: 'commodity',
        amount: '50',
        price: '2000',
        quoteConversion: '1',
        usdConversion: '1',
      }).toString(),
    ).toBe('3.5');
  });

  it('charges per million of notional in US dollars', () => {
    const terms = { rate: '30', basis: 'million', charge: 'open' } as const;
    // 10 BTC at 60,000 USD = 600,000 USD of notional: 18 USD.
    expect(
      commissionOf({
        terms,
        category: 'crypto',
        amount: '10',
        price: '60000',
        quoteConversion: '1',
        usdConversion: '1',
      }).toString(),
    ).toBe('18');
    // 100,000 USD/JPY at 150 = 15,000,000 JPY = 100,000 USD: 3 USD, on a EUR wallet (1.25 USD, 187.5 JPY per EUR): 2.4 EUR.
    expect(
      commissionOf({
        terms,
        category: 'forex',
        amount: '100000',
        price: '150',
        quoteConversion: '187.5',
        usdConversion: '1.25',
      }).toString(),
    ).toBe('2.4');
  });

  it('charges nothing at a rate of 0, and rounds half to even at 8 places', () => {
    const zero = { rate: '0', basis: 'lot', charge: 'both' } as const;
    expect(
      commissionOf({
        terms: zero,
        category: 'forex',
        amount: '1000',
        price: '1',
        quoteConversion: '1',
        usdConversion: '1',
      }).isZero(),
    ).toBe(true);
    const tiny = { rate: '0.00000025', basis: 'lot', charge: 'both' } as const;
    // 0.00000025 × 0.1 lot = 0.000000025 → 0.00000002 (half to even).
    expect(
      commissionOf({
        terms: tiny,
        category: 'forex',
        amount: '10000',
        price: '1',
        quoteConversion: '1',
        usdConversion: '1',
      }).toFixed(8),
    ).toBe('0.00000002');
  });

  it('says when a plan charges', () => {
    expect([chargesAt('open', 'open'), chargesAt('open', 'close')]).toEqual([true, false]);
    expect([chargesAt('close', 'open'), chargesAt('close', 'close')]).toEqual([false, true]);
    expect([chargesAt('both', 'open'), chargesAt('both', 'close')]).toEqual([true, true]);
  });

  it("counts lots in the instrument's own contract size when it has one", () => {
    const terms = { rate: '10', basis: 'lot' as const, charge: 'both' as const };
    const at = (contractSize: string | null) =>
      commissionOf({
        terms,
        category: 'commodity',
        contractSize,
        amount: '500',
        price: '30',
        quoteConversion: '1',
        usdConversion: '1',
      }).toString();
    // 500 oz of silver: 5 lots of the default 100 oz, 0.1 lot of a 5,000 oz contract.
    expect(at(null)).toBe('50');
    expect(at('5000')).toBe('1');
    expect(lotsOf('500', { category: 'commodity', contractSize: '5000' }).toString()).toBe('0.1');
  });
});
