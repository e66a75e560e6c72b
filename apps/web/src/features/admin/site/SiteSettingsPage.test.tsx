import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { SiteSettingsPage } from './SiteSettingsPage.tsx';

afterEach(cleanup);

const settings = {
  appName: 'Trading Platform',
  appUrl: 'http://localhost:3000',
  appCurrency: 'USD',
  currencies: ['USD', 'EUR'],
  recaptchaClientKey: '',
  recaptchaSecretSet: true,
  whatsapp: '',
  webhookApiKeyLeads: '',
  demoBalance: '10000',
  kycDeposit: true,
  kycWithdraw: true,
  kycTrade: false,
  recaptcha: false,
  pricingPlan: true,
  emailVerify: true,
  showUserInfoAgent: false,
  rolloverTime: '17:00',
  rolloverTimezone: 'America/New_York',
  favicon: '/favicon.svg',
  appLogo: '/logo.svg',
  authBackground: null,
};

describe('SiteSettingsPage', () => {
  it('shows the fields and switches, and posts them as a form with the switches as on/off', async () => {
    const { calls } = mockFetch((c) => (c.method === 'POST' ? { message: 'Settings updated successfully' } : settings));
    renderWithProviders(<SiteSettingsPage />);
    const name = await screen.findByRole('textbox', { name: 'App Name' });
    // The App URL is the server's own (APP_URL), shown read-only.
    expect((screen.getByRole('textbox', { name: 'App URL' }) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText('A secret is set; leave blank to keep it.')).toBeTruthy();
    expect(screen.getByText('Demo Wallet Initial Balance (USD)')).toBeTruthy();
    for (const label of [
      'KYC Required For Deposit',
      'KYC Required For Withdraw',
      'KYC Required For Trade',
      'Recaptcha',
      'Pricing Plan',
      'Email Verification (Registration)',
      'Show Email & Phone in Agent Dashboard',
    ])
      expect(screen.getByRole('switch', { name: label })).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Acme Markets' } });
    fireEvent.click(screen.getByRole('switch', { name: 'KYC Required For Trade' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as FormData;
    expect(body.get('appName')).toBe('Acme Markets');
    expect(body.get('kycTrade')).toBe('on');
    expect(body.get('kycDeposit')).toBe('on');
    expect(body.get('recaptcha')).toBe('off');
    expect(body.get('recaptchaSecretKey')).toBe('');
    expect(await screen.findByText('Settings updated successfully')).toBeTruthy();
  });
});
