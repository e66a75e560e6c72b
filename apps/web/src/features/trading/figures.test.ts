import { describe, expect, it } from 'vitest';
import { dec } from '@platform/domain';
import {
  estimateOrder,
  formatPrice,
  formatProfitLoss,
  INSUFFICIENT_BALANCE,
  INSUFFICIENT_FREE_MARGIN,
  leverageOf,
  openPositionProfitLoss,
} from './figures.ts';
import { orderFixture } from './testing.ts';

describe('profit/loss of an open position', () => {
  it('closes a buy at the bid and subtracts the spread cost', () => {
    // (1.08510 − 1.08000) × 10000 − 2 = 49
    const pl = openPositionProfitLoss(orderFixture(), { bid: 1.0851, ask: 1.0853 }, '1');
    expect(pl?.toString()).toBe('49');
  });

  it('closes a sell at the ask and converts with the current rate', () => {
    const order = orderFixture({
      type: 'sell',
      instrument: 'USD_JPY',
      quote_symbol: 'JPY',
      open_rate: '151.500',
      spread: '120',
      exchange_rate: '150',
    });
    // (151.500 − 151.221) × 10000 − 120 = 2670 JPY at 151.2 JPY per USD
    const pl = openPositionProfitLoss(order, { bid: 151.209, ask: 151.221 }, '151.2');
    expect(pl?.toFixed(5)).toBe('17.65873');
    // Without a current rate the rate of the opening is used.
    expect(openPositionProfitLoss(order, { bid: 151.209, ask: 151.221 }, undefined)?.toFixed(2)).toBe('17.80');
  });

  it('is unknown before the instrument has a price', () => {
    expect(openPositionProfitLoss(orderFixture(), undefined, '1')).toBeNull();
  });
});

describe('formats', () => {
  it('shows P/L with 5 decimals, green above 0 and red otherwise', () => {
    expect(formatProfitLoss(dec('49'), 'USD')).toEqual({ text: '$49.00000', color: 'teal' });
    expect(formatProfitLoss('-1234.567891', 'USD')).toEqual({ text: '-$1,234.56789', color: 'red' });
    expect(formatProfitLoss('0', 'EUR')).toEqual({ text: '€0.00000', color: 'red' });
    expect(formatProfitLoss(null, 'USD').text).toBe('-');
  });

  it('shows prices with the instrument digits', () => {
    expect(formatPrice(1.0851, 5)).toBe('1.08510');
    expect(formatPrice(undefined, 5)).toBe('-');
  });
});

describe('order estimate', () => {
  const base = {
    side: 'buy' as const,
    prices: { bid: 1.0851, ask: 1.0853 },
    instrument: { quote: 'USD' },
    leverage: 100,
    conversionRate: '1',
    balance: '10000',
    margin: '0',
    openProfitLoss: '0',
  };

  it('computes required margin, pip value and the P/L of closing at once', () => {
    const e = estimateOrder({ ...base, amount: '10000' });
    expect(e.requiredMargin.toFixed(2)).toBe('108.53');
    expect(e.pipValue.toFixed(2)).toBe('1.00');
    // spread 0.0002 × 10000 paid twice: at the fill and as the spread cost
    expect(e.profitLoss.toFixed(2)).toBe('-4.00');
    expect(e.problem).toBeNull();
    expect(e.hasAmount).toBe(true);
  });

  it('says "Insufficient Balance!" before "Insufficient Free Margin!"', () => {
    expect(estimateOrder({ ...base, amount: '10000000' }).problem).toBe(INSUFFICIENT_BALANCE);
    expect(estimateOrder({ ...base, amount: '900000', margin: '1000' }).problem).toBe(INSUFFICIENT_FREE_MARGIN);
    // Live profit adds to the free margin, a live loss takes from it.
    expect(estimateOrder({ ...base, amount: '900000', margin: '1000', openProfitLoss: '900' }).problem).toBeNull();
    expect(estimateOrder({ ...base, amount: '900000', margin: '0', openProfitLoss: '-500' }).problem).toBe(
      INSUFFICIENT_FREE_MARGIN,
    );
  });

  it('has no amount when empty or zero', () => {
    expect(estimateOrder({ ...base, amount: '' }).hasAmount).toBe(false);
    expect(estimateOrder({ ...base, amount: '0' }).hasAmount).toBe(false);
  });

  it('takes the plan leverage of the category, else the instrument leverage', () => {
    const eurUsd = { category: 'forex' as const, base: 'EUR', quote: 'USD', leverage: 100 };
    const btc = { category: 'crypto' as const, base: 'BTC', quote: 'USD', leverage: 5 };
    expect(leverageOf(null, eurUsd)).toBe(100);
    const plan = { forex_leverage: 200, crypto_leverage: null } as Parameters<typeof leverageOf>[0];
    expect(leverageOf(plan, eurUsd)).toBe(200);
    expect(leverageOf(plan, btc)).toBe(5);
  });

  it('caps a retail plan at the class cap: 30 on a major pair, 20 on another, 2 on crypto', () => {
    const plan = { forex_leverage: 200, crypto_leverage: null, retail: true } as Parameters<typeof leverageOf>[0];
    expect(leverageOf(plan, { category: 'forex', base: 'EUR', quote: 'USD', leverage: 100 })).toBe(30);
    expect(leverageOf(plan, { category: 'forex', base: 'AUD', quote: 'USD', leverage: 100 })).toBe(20);
    expect(leverageOf(plan, { category: 'crypto', base: 'BTC', quote: 'USD', leverage: 5 })).toBe(2);
  });
});
