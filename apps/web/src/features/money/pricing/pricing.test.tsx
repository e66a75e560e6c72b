import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUserFixture } from '../../../test/fixtures.ts';
import { mockMoneyApi, realUser, renderMoneyRoutes, stubLocation } from '../testing.tsx';
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

  it('reloads the page after a subscription', async () => {
    const { reload } = stubLocation();
    const api = mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/dashboard/pricing/subscribe/2'
        ? { body: { message: 'Plan changed' } }
        : undefined,
    );
    showPricing();
    fireEvent.click(within(await screen.findByTestId('plan-2')).getByRole('button', { name: 'Get Started' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.posted('/dashboard/pricing/subscribe/2')).toHaveLength(1);
  });

  it('sends a failed subscription to /deposits with "Not enough balance" and the server reason below', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/dashboard/pricing/subscribe/2'
        ? { status: 422, body: { message: 'No rate for EUR to USD' } }
        : undefined,
    );
    showPricing();
    fireEvent.click(within(await screen.findByTestId('plan-2')).getByRole('button', { name: 'Get Started' }));
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
