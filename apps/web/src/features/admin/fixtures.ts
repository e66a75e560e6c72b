import type { CurrentUserResponse, StaffUserDto } from '@platform/domain';
import { brandingFixture } from '../../test/fixtures.ts';

/** The /auth/user answer for a signed-in user of the given role (component tests). */
export function currentUser(roleId: number, id = 1): CurrentUserResponse {
  return {
    user: {
      id,
      full_name: 'Ada Admin',
      email: 'ada@demo.test',
      role_id: roleId,
      pricing_table_id: null,
      is_email_verified: true,
      balances: [],
      profile: { phone: null, birth_date: null, country: null, city: null, address: null, postal_code: null },
      pricingTable: null,
    },
    activeBalance: null,
    isKyc: false,
    kycRequired: { deposit: true, withdraw: true, trade: true },
    impersonating: false,
  };
}

export const BRANDING = brandingFixture({
  appName: 'Acme Markets',
  appLogo: null,
  appCurrencies: ['USD'],
  demoBalance: '0',
});

export function staffUser(overrides: Partial<StaffUserDto> = {}): StaffUserDto {
  return {
    id: 2,
    full_name: 'Max Manager',
    email: 'max@demo.test',
    role_id: 2,
    is_email_verified: true,
    is_active: true,
    online: false,
    whitelists: [],
    created_at: '2024-01-02T10:00:00Z',
    ...overrides,
  };
}
