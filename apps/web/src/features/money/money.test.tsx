import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CurrentUserResponse, KycStatusResponse, PricingPlanDto } from '@platform/domain';
import { brandingFixture, currentUserFixture } from '../../test/fixtures.ts';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { depositFigures } from './deposits/DepositForm.tsx';
import { withdrawFigures } from './withdraws/WithdrawForm.tsx';
import { PricingPage } from './pricing/PricingPage.tsx';
import { ForcedPlanModal } from './pricing/ForcedPlanModal.tsx';

afterEach(cleanup);

const plan = (id: number, name: string, price: string, over: Partial<PricingPlanDto> = {}): PricingPlanDto => ({
  id, name, description: `${name} plan`, price, currency: 'USD', forex_leverage: 100, commodity_leverage: null, index_leverage: null, stock_leverage: null,
  crypto_leverage: null, forex_stopout: 50, commodity_stopout: null, index_stopout: null, stock_stopout: null, crypto_stopout: null, subscribers: 0, ...over,
});
const PLANS = { data: [plan(1, 'Basic', '0'), plan(2, 'Silver', '250', { forex_leverage: null, forex_stopout: null })], meta: { total: 2, per_page: 100, page: 1 } };
const EMPTY_PAGE = { data: [], meta: { total: 0, per_page: 15, page: 1 } };

function api(user: CurrentUserResponse, extra: (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined = () => undefined) {
  return mockApi((method, path, body) => {
    if (path === '/auth/user') return { body: user };
    if (path === '/settings/branding') return { body: brandingFixture() };
    if (path === '/countries') return { body: [{ name: { common: 'United Kingdom' } }] };
    if (path === '/deposits/gateways') return { body: { data: [{ name: 'Bank', value: 'bank', group: 'manual', link: null, logo: null, custom_label: null, custom_value: null, fee: '0' }] } };
    if (path === '/withdraws/fees') return { body: { percentage: '1.5', fixed: '2' } };
    if (path.endsWith('/history')) return { body: EMPTY_PAGE };
    if (path === '/dashboard/pricing') return { body: PLANS };
    return extra(method, path, body);
  });
}

describe('money figures', () => {
  it('charges the gateway percent on a deposit and percent plus fixed on a withdrawal, to the cent', () => {
    expect(depositFigures('100', '2.5')).toEqual({ fee: '2.50', total: '102.50' });
    expect(depositFigures('10.01', '1.5')).toEqual({ fee: '0.15', total: '10.16' });
    expect(depositFigures('abc', '1')).toBeNull();
    expect(withdrawFigures('200', { percentage: '1.5', fixed: '2' })).toEqual({ fee: '5.00', total: '205.00' });
    expect(withdrawFigures('', { percentage: '1', fixed: '0' })).toBeNull();
  });
});

describe('plans', () => {
  it('disables the current plan, shows "normal" and "N/A" for missing terms, and sends a failed subscription to deposits', async () => {
    api(currentUserFixture(), (method, path) => (method === 'POST' && path === '/dashboard/pricing/subscribe/2' ? { status: 422, body: { message: 'Not enough balance' } } : undefined));
    renderScreen(<PricingPage />, { path: '/pricing' });
    const basic = await screen.findByTestId('plan-1');
    expect((within(basic).getAllByRole('button').at(-1) as HTMLButtonElement).disabled).toBe(true);
    const silver = screen.getByTestId('plan-2');
    expect(within(silver).getByText('Leverage up to normal')).toBeTruthy();
    expect(within(silver).getByText('Stop out N/A')).toBeTruthy();
    fireEvent.click(within(silver).getByRole('button', { name: 'Get Started' }));
    expect(await screen.findByText('Not enough balance')).toBeTruthy();
  });

  it('covers the page with the plan chooser for a customer without a plan, never for staff', async () => {
    api({ ...currentUserFixture(), user: { ...currentUserFixture().user, pricing_table_id: null } });
    renderScreen(<ForcedPlanModal />, { path: '/profile' });
    expect(await screen.findByText('Choose your plan')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    cleanup();
    api({ ...currentUserFixture(1), user: { ...currentUserFixture(1).user, pricing_table_id: null } });
    renderScreen(<ForcedPlanModal />, { path: '/profile' });
    await waitFor(() => expect(screen.queryByText('Choose your plan')).toBeNull());
  });
});
