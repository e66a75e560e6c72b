import { describe, expect, it } from 'vitest';
import { dec, formatMoney, parseAmount, toFixed } from './money.ts';

describe('money', () => {
  it('adds exactly where floats do not', () => {
    expect(dec('0.1').plus('0.2').toString()).toBe('0.3');
    expect(toFixed(dec('1.005'), 2)).toBe('1.01');
  });
  it('formats with the currency symbol, grouping and two decimals', () => {
    expect(formatMoney('1234.5', 'USD')).toBe('$1,234.50');
    expect(formatMoney('-0.004', 'EUR')).toBe('€0.00');
    expect(formatMoney('-12', 'GBP')).toBe('-£12.00');
    expect(formatMoney('5', 'XYZ')).toBe('XYZ 5.00');
  });
  it('parses decimal strings and refuses junk or too many decimals', () => {
    expect(parseAmount('10.25')?.toString()).toBe('10.25');
    expect(parseAmount('1e5')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('1.123456789', 8)).toBeNull();
  });
});
