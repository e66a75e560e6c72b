import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { paged, pricingPlan } from '../fixtures.ts';
import { PricingPlansPage } from './PricingPlansPage.tsx';

afterEach(cleanup);

const LIST = paged([
  pricingPlan(),
  pricingPlan({
    id: 4,
    name: 'Starter',
    price: '0.00',
    forex_leverage: null,
    commodity_leverage: null,
    index_leverage: null,
    stock_leverage: null,
    subscribers: 0,
    account_type: 'netting',
  }),
]);

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<PricingPlansPage />);
  return mock;
};

const row = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('PricingPlansPage', () => {
  it('lists plans with price, leverages per class and subscribers', async () => {
    const { calls } = render();
    const gold = await row('Gold');
    for (const h of [
      'ID',
      'NAME',
      'PRICE',
      'FOREX LEV.',
      'COMM. LEV.',
      'STOCK LEV.',
      'INDEX LEV.',
      'CRYPTO LEV.',
      'ACCOUNT',
      'SUBSCRIBERS',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].path).toBe('/dashboard/pricing');
    const cells = within(gold)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 10)).toEqual(['3', 'Gold', '$250.00', '500', '100', '20', '100', '-', 'Hedging', '4']);
    const starter = within(await row('Starter'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(starter.slice(0, 10)).toEqual(['4', 'Starter', '$0.00', '-', '-', '-', '-', '-', 'Netting', '0']);
  });

  it('deletes after "Are you sure to delete this plan?" and reloads', async () => {
    const { calls } = render((c) => (c.method === 'DELETE' ? { message: 'Plan deleted successfully' } : LIST));
    fireEvent.click(within(await row('Starter')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this plan?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Plan deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/pricing/4');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it("shows the server's reason when a plan with subscribers is kept, else the generic text", async () => {
    let status = 409;
    render((c) =>
      c.method === 'DELETE' ? { status, body: { message: '4 customers are subscribed to this plan.' } } : LIST,
    );
    const gold = await row('Gold');
    fireEvent.click(within(gold).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('4 customers are subscribed to this plan.')).toBeTruthy();
    status = 500;
    fireEvent.click(within(gold).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });

  it('opens the edit form with the plan and the add form empty', async () => {
    render();
    fireEvent.click(within(await row('Gold')).getByRole('button', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Plan')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', 'Gold');
    expect(within(dialog).getByRole('textbox', { name: /^Forex Leverage/ })).toHaveProperty('value', '500');
    expect(within(dialog).getByRole('textbox', { name: /^Crypto Leverage/ })).toHaveProperty('value', '');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add Plan')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', '');
  });
});
