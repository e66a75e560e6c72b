import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { expiryValue, inPips, pendingPriceHint, startingPrices } from './orderKinds.ts';

const prices = { bid: 1.0851, ask: 1.0853 };

describe('order kinds', () => {
  it.each([
    ['buy', 'limit'],
    ['sell', 'limit'],
    ['buy', 'stop'],
    ['sell', 'stop'],
    ['buy', 'stop_limit'],
    ['sell', 'stop_limit'],
  ] as const)('starts a %s %s on the side the server accepts', (side, kind) => {
    const start = startingPrices(side, kind, prices, 5);
    expect(pendingPriceHint(side, kind, prices, start.price, start.limitPrice)).toBeNull();
  });

  it('hints each rule the way the server words it, and the limit of an activated stop-limit alone', () => {
    expect(pendingPriceHint('sell', 'limit', prices, '1.0851', '')?.text).toBe(
      'A Sell Limit must be above the bid ({{bid}})',
    );
    expect(pendingPriceHint('buy', 'stop_limit', prices, '1.09', '1.091')?.text).toBe(
      'The limit price must be at or below the stop price ({{price}})',
    );
    expect(pendingPriceHint('buy', 'stop_limit', prices, '1.08', '1.07')?.text).toBe(
      'The stop price must be above the ask ({{ask}})',
    );
    expect(pendingPriceHint('buy', 'stop_limit', prices, '1.08', '1.07', true)).toBeNull();
    expect(pendingPriceHint('buy', 'stop_limit', prices, '1.08', '1.09', true)?.text).toBe(
      'The limit price must be below the ask ({{ask}})',
    );
    expect(pendingPriceHint('buy', 'limit', prices, 'x', '')).toMatchObject({ missing: true });
  });

  it('sends gtc and day as they are, and a date only in the future', () => {
    const now = dayjs('2026-03-01T10:00');
    expect(expiryValue('gtc', '', now)).toBe('gtc');
    expect(expiryValue('day', '', now)).toBe('day');
    expect(expiryValue('date', '2026-03-01T09:00', now)).toBeNull();
    expect(expiryValue('date', '', now)).toBeNull();
    expect(expiryValue('date', '2026-03-02T09:00', now)).toBe(dayjs('2026-03-02T09:00').toISOString());
  });

  it('counts pips of 0.0001, or 0.01 on a JPY quote', () => {
    expect(inPips('0.0025', 'USD')).toBe('25');
    expect(inPips('0.155', 'JPY')).toBe('15.5');
    expect(inPips('', 'USD')).toBeNull();
  });
});
