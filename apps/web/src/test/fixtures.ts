import type { BrandingResponse, CurrentUserResponse } from '@platform/domain';

export function brandingFixture(overrides: Partial<BrandingResponse> = {}): BrandingResponse {
  return {
    appName: 'Test Broker',
    appLogo: '/logo.svg',
    favicon: null,
    authBackground: null,
    appUrl: null,
    appCurrency: 'USD',
    appCurrencies: ['USD', 'EUR'],
    appLangs: [{ name: 'English', code: 'en' }],
    whatsapp: null,
    pricingPlan: 'on',
    showUserInfoAgent: 'off',
    emailVerify: 'on',
    recaptcha: { status: 'off', siteKey: null },
    demoBalance: '10000',
    riskWarning: { losingPercent: '74.5' },
    ...overrides,
  };
}

export function currentUserFixture(roleId = 3): CurrentUserResponse {
  const demo = { id: 11, mode: 'demo' as const, currency: 'USD', balance: '10000.00', margin: '0.00' };
  const real = { id: 12, mode: 'real' as const, currency: 'USD', balance: '5000.00', margin: '250.00' };
  return {
    user: {
      id: 7,
      full_name: 'Chris Client',
      email: 'chris.client@demo.test',
      role_id: roleId,
      pricing_table_id: 1,
      is_email_verified: true,
      balances: [demo, real],
      profile: {
        phone: '+44 20 7946 0103',
        birth_date: '1990-04-12',
        country: 'United Kingdom',
        city: 'London',
        address: '3 Demo Street',
        postal_code: 'EC1A 1BB',
      },
      pricingTable: null,
    },
    activeBalance: demo,
    isKyc: true,
    kycRequired: { deposit: true, withdraw: true, trade: true },
    impersonating: false,
  };
}
