import { describe, expect, it } from 'vitest';
import { CustomerListQuery } from './customers.ts';
import { LeadListQuery } from './crm.ts';

describe('Customer 360 list parameters', () => {
  it('take the known sorts, directions, KYC states and yes/no filters, amounts as exact text', () => {
    for (const schema of [CustomerListQuery, LeadListQuery]) {
      const q = schema.parse({
        sort: 'equity',
        dir: 'asc',
        kyc: 'pending',
        ftd: 'yes',
        ftdFrom: '2026-01-01',
        ftdTo: '2026-01-31',
        balanceMin: '100.10',
        equityMax: '-5',
        online: 'no',
      });
      expect(q).toMatchObject({ sort: 'equity', dir: 'asc', kyc: 'pending', balanceMin: '100.10', equityMax: '-5' });
    }
  });

  it('refuse anything else', () => {
    for (const bad of [
      { sort: 'password_hash' },
      { sort: 'equity;drop' },
      { dir: 'up' },
      { kyc: 'verified' },
      { ftd: 'maybe' },
      { online: 'true' },
      { ftdFrom: '2026-02-30' },
      { balanceMin: '1e9' },
      { balanceMin: '12.123456789' },
      { equityMax: '123456789012345' },
      { equityMin: 'NaN' },
    ])
      expect(CustomerListQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
