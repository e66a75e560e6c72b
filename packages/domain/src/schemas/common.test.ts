import { describe, expect, it } from 'vitest';
import {
  PagedQuery,
  UNSAFE_TEXT_MESSAGE,
  isSafeText,
  optionalString,
  requiredString,
  safeString,
  secretString,
} from './common.ts';
import { LoginRequest } from './auth.ts';
import { OrderCreateRequest, RatesQuery } from './trading.ts';
import { InstrumentRequest } from './trade-management.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('safe text', () => {
  it('refuses NUL and UTF-16 halves without their pair, and nothing else', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'x\udc00y', '\ud83d', 'ok\ud83d\ud83d'])
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'Zoë', '東京', 'emoji 😀', '\ud83d\ude00', 'tab\tand\nnewline', "O'Brien <b>"])
      expect(isSafeText(good), good).toBe(true);
  });

  it('is checked by every shared text schema with one message', () => {
    for (const schema of [requiredString('Name is required'), optionalString(), safeString(50)]) {
      expect(firstMessage(schema.safeParse('a\u0000b'))).toBe(UNSAFE_TEXT_MESSAGE);
      expect(firstMessage(schema.safeParse('a\ud800b'))).toBe(UNSAFE_TEXT_MESSAGE);
      expect(schema.safeParse('fine').success).toBe(true);
    }
    expect(firstMessage(requiredString('Name is required', 10).safeParse('x'.repeat(100_000)))).toBe(
      'Must be at most 10 characters',
    );
  });

  it('bounds passwords, which are only hashed, by length alone', () => {
    expect(secretString('Password is required').safeParse('p\u0000ss\ud800word').success).toBe(true);
    expect(firstMessage(secretString('Password is required').safeParse(''))).toBe('Password is required');
    expect(firstMessage(LoginRequest.safeParse({ email: 'a@b.test', password: 'x'.repeat(100_000) }))).toBe(
      'Must be at most 128 characters',
    );
  });

  it('keeps searches and pages within what the database can answer', () => {
    expect(PagedQuery.safeParse({ search: '\u0000' }).success).toBe(false);
    expect(PagedQuery.safeParse({ page: '100001' }).success).toBe(false);
    expect(PagedQuery.safeParse({ page: '1e20' }).success).toBe(false);
    expect(PagedQuery.parse({ page: '3', search: ' x ' })).toEqual({ page: 3, limit: 15, search: 'x' });
  });
});

describe('number bounds', () => {
  const order = (amount: unknown, profit: unknown = null) =>
    OrderCreateRequest.safeParse({ type: 'buy', instrument: 'EUR_USD', amount, profit });
  it('caps order sizes and rates far below the columns’ precision', () => {
    expect(order(1e13).success).toBe(false);
    expect(firstMessage(order('10000000000000'))).toBe('Must be at most 1000000000');
    expect(order(1e21).success).toBe(false);
    expect(order(1_000_000_000).success).toBe(true);
    expect(order(1000, '1000000000.5').success).toBe(false);
    expect(order(1000, '1.08').success).toBe(true);
  });

  it('caps instrument prices', () => {
    const base = {
      name: 'ZZ_USD',
      base: 'ZZ',
      quote: 'USD',
      category: 'forex',
      tradingview: 'FX',
      leverage: 100,
      tradable: true,
    };
    expect(firstMessage(InstrumentRequest.safeParse({ ...base, bids: 1, asks: 1e308 }))).toBe(
      'Ask must be at most 1000000000',
    );
    expect(InstrumentRequest.safeParse({ ...base, bids: 1.1, asks: 1.2 }).success).toBe(true);
  });
});

describe('currency codes', () => {
  it('takes instrument-style codes in any case and refuses anything else', () => {
    expect(RatesQuery.parse({ quote: 'jpy' })).toEqual({ quote: 'JPY' });
    expect(RatesQuery.parse({ quote: 'USDT' })).toEqual({ quote: 'USDT' });
    for (const bad of ['-1', '\u0000', '"USD"', '2026-01-01 x', 'X'.repeat(21), ''])
      expect(RatesQuery.safeParse({ quote: bad }).success, bad).toBe(false);
  });
});
