import { describe, expect, it } from 'vitest';
import { dealCommissionBase, levelAmounts } from './partners.ts';

describe('partner commission', () => {
  it('adds the per-lot amount and the shares of the costs, converted to the plan currency', () => {
    const base = dealCommissionBase({
      perLot: '7',
      lots: '0.5',
      spreadShare: '25',
      spreadPaid: '2.00',
      commissionShare: '10',
      commissionPaid: '3.5',
      toPlanCurrency: '1',
    });
    // 3.5 + 0.5 + 0.35
    expect(base.toString()).toBe('4.35');
  });

  it('converts the costs, not the per-lot amount, and never pays on a negative cost', () => {
    const base = dealCommissionBase({
      perLot: '10',
      lots: '1',
      spreadShare: '50',
      spreadPaid: '4',
      commissionShare: '50',
      commissionPaid: '-1',
      toPlanCurrency: '1.1',
    });
    expect(base.toString()).toBe('12.2');
  });

  it('gives each level its percent to the cent, half up', () => {
    expect(levelAmounts('4.35', ['100', '20', '5']).map(String)).toEqual(['4.35', '0.87', '0.22']);
    expect(levelAmounts('0.125', ['100']).map(String)).toEqual(['0.13']);
  });
});
