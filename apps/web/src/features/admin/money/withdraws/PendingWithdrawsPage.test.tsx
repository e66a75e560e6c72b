import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { BANK, moneyRecord, paged } from '../fixtures.ts';
import { PendingWithdrawsPage } from './PendingWithdrawsPage.tsx';

afterEach(cleanup);

const LIST = paged([
  moneyRecord({
    id: 21,
    gateway: 'bank',
    description: 'Withdraw to bank',
    formattedDescription: BANK,
    balance: { id: 4, currency: 'USD', mode: 'real' },
    amount: '200.00',
    fee: '5.00',
    total: '195.00',
  }),
  moneyRecord({ id: 22, gateway: 'usdt', description: null }),
]);

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<PendingWithdrawsPage />);
  return mock;
};

const row = async (id: number) => (await screen.findByRole('cell', { name: String(id) })).closest('tr') as HTMLElement;

describe('PendingWithdrawsPage', () => {
  it('lists pending withdrawals with wallet money and the bank Details popover', async () => {
    const { calls } = render();
    const bank = await row(21);
    await showAllColumns();
    for (const h of ['ID', 'USER', 'GATEWAY', 'DESCRIPTION', 'AMOUNT', 'FEE', 'TOTAL', 'STATUS', 'DATE', 'ACTION'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].path).toBe('/admin/withdraws/api/pending');
    expect(within(bank).getByText('Demo Bank plc')).toBeTruthy();
    expect(within(bank).getByText('$200.00')).toBeTruthy();
    expect(within(bank).getByText('$5.00')).toBeTruthy();
    expect(within(bank).getByText('$195.00')).toBeTruthy();
    expect(within(bank).getByText('Pending')).toBeTruthy();
    fireEvent.click(within(bank).getByRole('button', { name: 'Details' }));
    for (const label of ['Bank Name', 'A/C Name', 'A/C No', 'SWIFT', 'Country'])
      expect(await screen.findByText(label)).toBeTruthy();
    for (const value of ['Carla Client', 'GB33BUKB2020', 'BUKBGB22', 'United Kingdom'])
      expect(screen.getByText(value)).toBeTruthy();
    const usdt = await row(22);
    expect(within(usdt).getByText('USDT')).toBeTruthy();
    expect(within(usdt).queryByRole('button', { name: 'Details' })).toBeNull();
  });

  it('approves after the confirmation and toasts', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'Withdraw approved successfully' } : LIST));
    fireEvent.click(within(await row(22)).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Are you sure to approve this withdraw?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Withdraw approved successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/admin/withdraws/22/approve');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('declines with the typed reason', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'Withdraw declined successfully' } : LIST));
    fireEvent.click(within(await row(21)).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Are you sure to decline this withdraw?')).toBeTruthy();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Decline Reason', hidden: true }), {
      target: { value: ' Name does not match the account ' },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Withdraw declined successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/withdraws/21/decline');
    expect(post?.body).toEqual({ declineReason: 'Name does not match the account' });
  });

  it('declines without a reason (it is optional) and shows the generic text on failure', async () => {
    let fail = false;
    const { calls } = render((c) =>
      c.method === 'POST' ? (fail ? { status: 500, body: {} } : { message: 'ok' }) : LIST,
    );
    fireEvent.click(within(await row(22)).getByRole('button', { name: 'Decline' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Withdraw declined successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ declineReason: '' });
    fail = true;
    fireEvent.click(within(await row(22)).getByRole('button', { name: 'Approve' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
