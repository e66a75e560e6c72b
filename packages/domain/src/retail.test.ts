import { describe, expect, it } from 'vitest';
import { PricingPlanRequest } from './schemas/money.ts';
import { DEFAULT_RETAIL_CAPS, effectiveLeverage, retailCapsOf, retailClassOf, retailIssues } from './retail.ts';

const fx = (base: string, quote: string) => ({ category: 'forex' as const, base, quote, leverage: 100 });

describe('retail protections', () => {
  it('classes instruments as ESMA does: majors, other pairs, gold, major indices, other commodities and indices', () => {
    expect(retailClassOf(fx('EUR', 'USD'))).toBe('forexMajor');
    expect(retailClassOf(fx('USD', 'JPY'))).toBe('forexMajor');
    expect(retailClassOf(fx('AUD', 'USD'))).toBe('forexOther');
    expect(retailClassOf(fx('USD', 'CNH'))).toBe('forexOther');
    expect(retailClassOf({ category: 'commodity', base: 'XAU', quote: 'USD' })).toBe('gold');
    expect(retailClassOf({ category: 'commodity', base: 'WTICO', quote: 'USD' })).toBe('commodity');
    expect(retailClassOf({ category: 'index', base: 'SPX500', quote: 'USD' })).toBe('indexMajor');
    expect(retailClassOf({ category: 'index', base: 'HK33', quote: 'HKD' })).toBe('index');
    expect(retailClassOf({ category: 'stock', base: 'AAPL', quote: 'USD' })).toBe('stock');
    expect(retailClassOf({ category: 'crypto', base: 'BTC', quote: 'USD' })).toBe('crypto');
  });

  it('margins a retail order at the lower of the plan leverage and the class cap; other plans as before', () => {
    const retail = { retail: true, caps: DEFAULT_RETAIL_CAPS };
    expect(effectiveLeverage(null, fx('EUR', 'USD'), retail)).toBe(30);
    expect(effectiveLeverage(10, fx('EUR', 'USD'), retail)).toBe(10);
    expect(effectiveLeverage(null, fx('AUD', 'USD'), retail)).toBe(20);
    expect(effectiveLeverage(null, fx('EUR', 'USD'), { retail: false, caps: DEFAULT_RETAIL_CAPS })).toBe(100);
    expect(effectiveLeverage(500, fx('EUR', 'USD'), null)).toBe(500);
    expect(effectiveLeverage(null, { ...fx('EUR', 'USD'), leverage: 0 }, null)).toBe(1);
  });

  it('reads stored caps, and the shipped ones when none or malformed', () => {
    expect(retailCapsOf(null)).toEqual(DEFAULT_RETAIL_CAPS);
    expect(retailCapsOf({ forexMajor: 'x' })).toEqual(DEFAULT_RETAIL_CAPS);
    expect(retailCapsOf({ ...DEFAULT_RETAIL_CAPS, crypto: 1 }).crypto).toBe(1);
  });

  it('refuses a retail plan above its caps or closing out below 50 %', () => {
    expect(retailIssues(true, DEFAULT_RETAIL_CAPS, { forexLeverage: 30, commodityLeverage: 20 })).toEqual([]);
    expect(retailIssues(true, DEFAULT_RETAIL_CAPS, { forexLeverage: 31, cryptoStopout: 40 })).toEqual([
      { field: 'forexLeverage', message: 'A retail plan allows at most 1:30 on this category' },
      { field: 'cryptoStopout', message: 'A retail plan closes out at 50 % or above' },
    ]);
    expect(retailIssues(false, DEFAULT_RETAIL_CAPS, { forexLeverage: 500, forexStopout: 10 })).toEqual([]);
    const bad = PricingPlanRequest.safeParse({ name: 'R', price: '0', retail: true, stockLeverage: 6 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['stockLeverage'] });
    const caps = PricingPlanRequest.safeParse({
      name: 'R',
      retail: true,
      retailCaps: { ...DEFAULT_RETAIL_CAPS, stock: 0 },
    });
    expect(caps.success).toBe(false);
  });
});
