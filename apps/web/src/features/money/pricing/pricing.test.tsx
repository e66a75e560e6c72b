import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUserFixture } from '../../../test/fixtures.ts';
import { mockMoneyApi, PLANS, realUser, renderMoneyRoutes } from '../testing.tsx';
import { ForcedPlanModal } from './ForcedPlanModal.tsx';
import { PricingPage } from './PricingPage.tsx';

const showPricing = () => renderMoneyRoutes([{ path: '/pricing', element: <PricingPage /> }], '/pricing');
const lastButton = (el: HTMLElement) => within(el).getAllByRole('button').at(-1) as HTMLButtonElement;

describe('PricingPage', () => {
  it('shows each plan with price, leverage and stop out; the current plan is disabled', async () => {
    mockMoneyApi();
    showPricing();
    const basic = await screen.findByTestId('plan-1');
    expect(within(basic).getByText('Basic')).toBeTruthy();
    expect(within(basic).getByText('Basic plan')).toBeTruthy();
    expect(within(basic).getByText('$0.00')).toBeTruthy();
    expect(within(basic).getByText('Leverage up to 1:100')).toBeTruthy();
    expect(within(basic).getByText('Stop out 50%')).toBeTruthy();
    expect(lastButton(basic).disabled).toBe(true);
    expect(lastButton(basic).textContent).toBe('Current Plan');
    const silver = screen.getByTestId('plan-2');
    expect(within(silver).getByText('$250.00')).toBeTruthy();
    expect(within(silver).getByText('Leverage up to normal')).toBeTruthy();
    expect(within(silver).getByText('Stop out N/A')).toBeTruthy();
    expect(within(silver).getByRole('button', { name: 'Get Started' })).toBeTruthy();
  });

  it('shows the price in the wallet currency with the conversion, and asks to confirm that amount before charging', async () => {
    const eur = {
      ...PLANS,
      data: PLANS.data.map((p) =>
        p.id === 2 ? { ...p, charge: { wallet_id: 12, amount: '231.49', currency: 'EUR', rate: '1.08' } } : p,
      ),
    };
    const api = mockMoneyApi({}, (c) => {
      if (c.method === 'GET' && c.path === '/dashboard/pricing') return { body: eur };
      if (c.method === 'POST' && c.path === '/dashboard/pricing/subscribe/2')
        return { body: { message: 'You are now on the Silver plan.' } };
      return undefined;
    });
    showPricing();
    const silver = await screen.findByTestId('plan-2');
    expect(within(silver).getByTestId('plan-price').textContent).toBe('€231.49');
    expect(within(silver).getByText('$250.00 at 1 EUR = 1.08 USD')).toBeTruthy();

    fireEvent.click(within(silver).getByRole('button', { name: 'Get Started' }));
    const confirm = await screen.findByTestId('plan-confirm');
    expect(within(confirm).getByTestId('plan-confirm-amount').textContent).toBe('€231.49');
    expect(within(confirm).getByText('€231.49 will be charged once from your real EUR wallet.')).toBeTruthy();
    // Nothing is charged until the customer confirms.
    expect(api.posted('/dashboard/pricing/subscribe/2')).toHaveLength(0);
    const pay = await within(confirm).findByRole('button', { name: 'Pay €231.49' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    expect(await screen.findByText('You are now on the Silver plan.')).toBeTruthy();
    expect(api.posted('/dashboard/pricing/subscribe/2').map((c) => c.body)).toEqual([
      { amount: '231.49', currency: 'EUR' },
    ]);
    await waitFor(() => expect(screen.queryByTestId('plan-confirm')).toBeNull());
  });

  it('charges nothing when the confirmation is cancelled', async () => {
    const api = mockMoneyApi();
    showPricing();
    fireEvent.click(within(await screen.findByTestId('plan-2')).getByRole('button', { name: 'Get Started' }));
    const confirm = await screen.findByTestId('plan-confirm');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('plan-confirm')).toBeNull());
    expect(api.posted('/dashboard/pricing/subscribe/2')).toHaveLength(0);
  });

  it('keeps the confirmation open with the server message when the price moved', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/dashboard/pricing/subscribe/2'
        ? {
            status: 409,
            body: { message: 'The price is now €208.34 at the current rate. Please confirm the new price.' },
          }
        : undefined,
    );
    showPricing();
    fireEvent.click(within(await screen.findByTestId('plan-2')).getByRole('button', { name: 'Get Started' }));
    const pay = await screen.findByRole('button', { name: 'Pay $250.00' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    expect((await screen.findByTestId('plan-confirm-error')).textContent).toMatch(/now €208.34/);
    expect(screen.getByTestId('location').textContent).toBe('/pricing');
  });

  it('sends a failed subscription to /deposits with "Not enough balance" and the server reason below', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/dashboard/pricing/subscribe/2'
        ? { status: 422, body: { message: 'No rate for EUR to USD' } }
        : undefined,
    );
    showPricing();
    fireEvent.click(within(await screen.findByTestId('plan-2')).getByRole('button', { name: 'Get Started' }));
    const pay = await screen.findByRole('button', { name: 'Pay $250.00' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/deposits'));
    expect(await screen.findByText('Not enough balance')).toBeTruthy();
    expect(screen.getByText('No rate for EUR to USD')).toBeTruthy();
  });
});

describe('ForcedPlanModal', () => {
  const planless = (roleId = 3) => {
    const base = roleId === 3 ? realUser() : currentUserFixture(roleId);
    return { ...base, user: { ...base.user, pricing_table_id: null } };
  };
  const showModal = (path: string) => renderMoneyRoutes([{ path: '*', element: <ForcedPlanModal /> }], path);

  it('covers a client page for a customer without a plan, with no way to close it', async () => {
    mockMoneyApi({ user: planless() });
    showModal('/profile');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Choose your plan')).toBeTruthy();
    expect(await within(dialog).findByTestId('plan-2')).toBeTruthy();
    expect(within(dialog).getAllByRole('button', { name: 'Get Started' })).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: /close/i })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('stays away from the deposit and payment pages', async () => {
    const api = mockMoneyApi({ user: planless() });
    showModal('/deposits');
    await waitFor(() => expect(api.calls.some((c) => c.path === '/settings/branding')).toBe(true));
    expect(screen.queryByText('Choose your plan')).toBeNull();
    cleanup();
    mockMoneyApi({ user: planless() });
    showModal('/payments/sandbox/dep_0123456789abcdef');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Choose your plan')).toBeNull();
  });

  it('is never shown to staff, to a customer with a plan, or while plans are off', async () => {
    for (const [user, pricingPlan] of [
      [planless(1), 'on'],
      [realUser(), 'on'],
      [planless(), 'off'],
    ] as const) {
      const api = mockMoneyApi({ user, pricingPlan });
      showModal('/profile');
      await waitFor(() => expect(api.calls.some((c) => c.path === '/settings/branding')).toBe(true));
      await waitFor(() => expect(api.calls.some((c) => c.path === '/auth/user')).toBe(true));
      await new Promise((r) => setTimeout(r, 30));
      expect(screen.queryByText('Choose your plan')).toBeNull();
      cleanup();
    }
  });
});
