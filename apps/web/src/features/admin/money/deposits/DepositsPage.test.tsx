import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { BANK, moneyRecord, paged } from '../fixtures.ts';
import { DepositsPage } from './DepositsPage.tsx';

afterEach(cleanup);

const LIST = paged([
  moneyRecord(),
  moneyRecord({
    id: 12,
    gateway: 'bank',
    status: 'approved',
    description: null,
    reference: null,
    proof: '/api/files/proof-12',
    formattedDescription: BANK,
    balance: { id: 4, currency: 'USD', mode: 'real' },
    amount: '1500.00',
    fee: '0.00',
    total: '1500.00',
  }),
  moneyRecord({ id: 13, status: 'declined', user: { id: 43, email: 'dan@demo.test', full_name: 'Dan' } }),
]);

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<DepositsPage />);
  return mock;
};

const row = async (id: number) => (await screen.findByRole('cell', { name: String(id) })).closest('tr') as HTMLElement;

describe('DepositsPage', () => {
  it('lists deposits with the spec columns, wallet money, bank description, proof link and status chips', async () => {
    const { calls } = render();
    const card = await row(11);
    await showAllColumns();
    for (const h of [
      'ID',
      'USER',
      'GATEWAY',
      'DESCRIPTION',
      'REFERENCE',
      'PROOF',
      'AMOUNT',
      'FEE',
      'TOTAL',
      'STATUS',
      'DATE',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].path).toBe('/admin/deposits/api/history');
    expect(within(card).getByRole('link', { name: 'carla@demo.test' }).getAttribute('href')).toBe(
      '/admin/customers/edit/42',
    );
    expect(within(card).getByText('Stripe')).toBeTruthy();
    expect(within(card).getByText('€100.00')).toBeTruthy();
    expect(within(card).getByText('€2.50')).toBeTruthy();
    expect(within(card).getByText('€102.50')).toBeTruthy();
    expect(within(card).getByText('Pending')).toBeTruthy();
    expect(within(card).getByText('05/03/2025 2:07 PM')).toBeTruthy();

    const bank = await row(12);
    expect(within(bank).getByText('Bank')).toBeTruthy();
    for (const line of ['Demo Bank plc', 'Carla Client', 'GB33BUKB2020'])
      expect(within(bank).getByText(line)).toBeTruthy();
    const proof = within(bank).getByRole('link', { name: 'View' });
    expect(proof.getAttribute('href')).toBe('/api/files/proof-12');
    expect(proof.getAttribute('target')).toBe('_blank');
    expect(within(bank).getAllByText('$1,500.00')).toHaveLength(2);
    expect(within(bank).getByText('$0.00')).toBeTruthy();
    expect(within(bank).getByText('Approved')).toBeTruthy();
    expect(within(await row(13)).getByText('Declined')).toBeTruthy();
  });

  it('offers Approve and Decline on pending rows only', async () => {
    render();
    const pending = await row(11);
    expect(within(pending).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(pending).getByRole('button', { name: 'Decline' })).toBeTruthy();
    for (const id of [12, 13]) {
      const other = await row(id);
      expect(within(other).queryByRole('button', { name: 'Approve' })).toBeNull();
      expect(within(other).queryByRole('button', { name: 'Decline' })).toBeNull();
      const cells = within(other).getAllByRole('cell');
      expect(cells.at(-1)?.textContent).toBe('-');
    }
  });

  it('approves after the confirmation, toasts and reloads', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'Deposit approved successfully' } : LIST));
    fireEvent.click(within(await row(11)).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Are you sure to approve this deposit?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Deposit approved successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/admin/deposits/11/approve');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('declines with the spec toast, and shows the server message when refused', async () => {
    let fail = false;
    const { calls } = render((c) =>
      c.method === 'POST'
        ? fail
          ? { status: 409, body: { message: 'This deposit was already reviewed' } }
          : { message: 'ok' }
        : LIST,
    );
    fireEvent.click(within(await row(11)).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Are you sure to decline this deposit?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Deposit declined successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/admin/deposits/11/decline');

    fail = true;
    fireEvent.click(within(await row(11)).getByRole('button', { name: 'Approve' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('This deposit was already reviewed')).toBeTruthy();
  });
});
