import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { externalPayment, paged } from '../fixtures.ts';
import { ExternalPaymentsPage } from './ExternalPaymentsPage.tsx';

afterEach(cleanup);

const LIST = paged([
  externalPayment(),
  externalPayment({
    id: 6,
    name: 'Neteller',
    logo: null,
    custom_label: null,
    custom_value: null,
    link: 'https://pay.example.com/neteller',
  }),
]);

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<ExternalPaymentsPage />);
  return mock;
};

describe('ExternalPaymentsPage', () => {
  it('lists the payment links with logo, link and custom fields', async () => {
    const { calls } = render();
    const skrill = (await screen.findByText('Skrill')).closest('tr') as HTMLElement;
    for (const h of ['ID', 'LOGO', 'NAME', 'LINK', 'CUSTOM LABEL', 'CUSTOM VALUE', 'ACTIONS'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].path).toBe('/admin/externalPayments/api');
    expect(within(skrill).getByRole('img', { name: 'Skrill' }).getAttribute('src')).toBe('/api/files/logo-5');
    expect(within(skrill).getByRole('link', { name: 'https://pay.example.com/skrill' }).getAttribute('target')).toBe(
      '_blank',
    );
    expect(within(skrill).getByText('Account')).toBeTruthy();
    expect(within(skrill).getByText('pay@demo.test')).toBeTruthy();
    const neteller = screen.getByText('Neteller').closest('tr') as HTMLElement;
    expect(within(neteller).getAllByText('-')).toHaveLength(3);
  });

  it('deletes after "Are you sure to delete this payment?" and reloads', async () => {
    const { calls } = render((c) => (c.method === 'DELETE' ? { message: 'Payment deleted successfully' } : LIST));
    const neteller = (await screen.findByText('Neteller')).closest('tr') as HTMLElement;
    fireEvent.click(within(neteller).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this payment?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Payment deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/externalPayments/6');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('opens the add form empty and the edit form with the stored logo', async () => {
    render();
    const skrill = (await screen.findByText('Skrill')).closest('tr') as HTMLElement;
    fireEvent.click(within(skrill).getByRole('button', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit External Payment')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveProperty('value', 'Skrill');
    expect(within(dialog).getByRole('img', { name: 'Logo' }).getAttribute('src')).toBe('/api/files/logo-5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add External Payment')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveProperty('value', '');
    expect(within(dialog).queryByRole('img', { name: 'Logo' })).toBeNull();
  });
});
