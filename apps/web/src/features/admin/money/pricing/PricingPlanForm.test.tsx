import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../../ui/data-table/testing.tsx';
import { pricingPlan } from '../fixtures.ts';
import { PricingPlanForm } from './PricingPlanForm.tsx';

afterEach(cleanup);

const box = (label: RegExp) => screen.getByRole('textbox', { name: label });
const type = (label: RegExp, value: string) => {
  fireEvent.change(box(label), { target: { value } });
  fireEvent.blur(box(label));
};

describe('PricingPlanForm', () => {
  it('posts a camelCase payload with nulls for the empty leverages and stop outs', async () => {
    const { calls } = mockFetch(() => ({ message: 'Plan added successfully' }));
    const onSaved = vi.fn();
    renderWithProviders(<PricingPlanForm onSaved={onSaved} />);
    type(/^Name/, 'Silver');
    type(/^Price/, '99.5');
    type(/^Forex Leverage/, '30');
    type(/^Crypto Stop Out/, '60');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('Plan added successfully')).toBeTruthy();
    expect(calls[0].method).toBe('POST');
    expect(calls[0].path).toBe('/admin/pricing');
    expect(calls[0].body).toEqual({
      name: 'Silver',
      description: null,
      price: '99.50',
      forexLeverage: 30,
      commodityLeverage: null,
      indexLeverage: null,
      stockLeverage: null,
      cryptoLeverage: null,
      forexStopout: null,
      commodityStopout: null,
      indexStopout: null,
      stockStopout: null,
      cryptoStopout: 60,
      accountType: 'hedging',
      forexCommission: '0.0000',
      commodityCommission: '0.0000',
      indexCommission: '0.0000',
      stockCommission: '0.0000',
      cryptoCommission: '0.0000',
      commissionBasis: 'lot',
      commissionCharge: 'both',
      marginCallLevel: null,
      marginCallRearm: 10,
      swapFree: false,
      swapFreeFee: '0.0000',
      swapFreeDays: 0,
      retail: true,
      retailCaps: {
        forexMajor: 30,
        forexOther: 20,
        gold: 20,
        indexMajor: 20,
        commodity: 10,
        index: 10,
        stock: 5,
        crypto: 2,
      },
    });
  });

  it('starts a new plan retail: a leverage above the cap is refused until retail is off, and caps can be changed', async () => {
    const { calls } = mockFetch(() => ({ message: 'Plan added successfully' }));
    const onSaved = vi.fn();
    renderWithProviders(<PricingPlanForm onSaved={onSaved} />);
    type(/^Name/, 'Pro');
    type(/^Forex Leverage/, '200');
    expect(await screen.findByText('A retail plan allows at most 1:30 on this category')).toBeTruthy();
    type(/^Crypto$/, '1');
    fireEvent.click(screen.getByRole('switch', { name: /Retail client plan/ }));
    expect(screen.queryByRole('textbox', { name: /^Crypto$/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].body).toMatchObject({ forexLeverage: 200, retail: false, retailCaps: { crypto: 1 } });
  });

  it('sends commission, margin call and swap-free terms, refusing a margin call at a stop-out level', async () => {
    const { calls } = mockFetch(() => ({ message: 'Plan added successfully' }));
    const onSaved = vi.fn();
    renderWithProviders(<PricingPlanForm onSaved={onSaved} />);
    type(/^Name/, 'Islamic');
    type(/^Forex Commission/, '3.5');
    type(/^Margin Call Level/, '50');
    expect(await screen.findByText('The margin call level must be above every stop-out level')).toBeTruthy();
    type(/^Margin Call Level/, '100');
    expect(box(/^Daily administration fee/)).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('switch', { name: /Swap-free/ }));
    type(/^Daily administration fee/, '2.5');
    type(/^Free days/, '3');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].body).toMatchObject({
      forexCommission: '3.5000',
      marginCallLevel: 100,
      swapFree: true,
      swapFreeFee: '2.5000',
      swapFreeDays: 3,
    });
  });

  it('makes a plan netting, and shows a netting plan as such when editing it', async () => {
    const { calls } = mockFetch(() => ({ message: 'Plan updated successfully' }));
    const onSaved = vi.fn();
    const { unmount } = renderWithProviders(<PricingPlanForm plan={pricingPlan()} onSaved={onSaved} />);
    expect(screen.getByRole('combobox', { name: /^Account type/ })).toHaveProperty('value', 'Hedging');
    fireEvent.click(screen.getByRole('combobox', { name: /^Account type/ }));
    fireEvent.click(screen.getByRole('option', { name: 'Netting', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].body).toMatchObject({ name: 'Gold', accountType: 'netting' });
    unmount();
    renderWithProviders(<PricingPlanForm plan={pricingPlan({ account_type: 'netting' })} onSaved={vi.fn()} />);
    expect(screen.getByRole('combobox', { name: /^Account type/ })).toHaveProperty('value', 'Netting');
  });

  it('requires a name, checks the leverage range and sends nothing', async () => {
    const { calls } = mockFetch(() => ({}));
    renderWithProviders(<PricingPlanForm onSaved={vi.fn()} />);
    type(/^Index Leverage/, '6000');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Leverage must be a whole number from 1 to 5000')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('edits a plan with its id, clearing a leverage to null, and shows the server message on failure', async () => {
    const { calls } = mockFetch(() => ({ status: 409, body: { message: 'A plan with this name already exists.' } }));
    const onSaved = vi.fn();
    renderWithProviders(<PricingPlanForm plan={pricingPlan()} onSaved={onSaved} />);
    expect(box(/^Description/)).toHaveProperty('value', 'For active traders');
    expect(box(/^Forex Stop Out/)).toHaveProperty('value', '20');
    type(/^Stock Leverage/, '');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('A plan with this name already exists.')).toBeTruthy();
    expect(calls[0].method).toBe('PUT');
    expect(calls[0].path).toBe('/admin/pricing/3');
    expect(calls[0].body).toMatchObject({
      name: 'Gold',
      description: 'For active traders',
      price: '250.00',
      forexLeverage: 500,
      commodityLeverage: 100,
      indexLeverage: 100,
      stockLeverage: null,
      forexStopout: 20,
    });
    expect(onSaved).not.toHaveBeenCalled();
  });
});
