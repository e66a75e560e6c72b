import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockMoneyApi, realUser, renderMoneyRoutes, type MoneyCall } from '../testing.tsx';
import { withdrawFigures } from './WithdrawForm.tsx';
import { WithdrawsPage } from './WithdrawsPage.tsx';

const show = () => renderMoneyRoutes([{ path: '/withdraws', element: <WithdrawsPage /> }], '/withdraws');
const userReads = (calls: MoneyCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/auth/user').length;

async function fillIn() {
  fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '200' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Bank Name/ }), { target: { value: 'My Bank' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Account Number/ }), { target: { value: 'GB00 1234' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Swift Code/ }), { target: { value: 'MYBKGB22' } });
  fireEvent.click(screen.getByRole('combobox', { name: /Bank Country/ }));
  fireEvent.click(await screen.findByRole('option', { name: 'France', hidden: true }));
}

describe('WithdrawsPage', () => {
  it('computes fee as percent of the amount plus the fixed fee, to the cent', () => {
    expect(withdrawFigures('200', { percentage: '1.5', fixed: '2' })).toEqual({ fee: '5.00', total: '205.00' });
    expect(withdrawFigures('0.10', { percentage: '0.333', fixed: '0' })).toEqual({ fee: '0.00', total: '0.10' });
    expect(withdrawFigures('1000.05', { percentage: '2.25', fixed: '0.99' })).toEqual({
      fee: '23.49',
      total: '1023.54',
    });
    expect(withdrawFigures('x', { percentage: '1', fixed: '0' })).toBeNull();
  });

  it('shows the KYC notice, the account name read-only and the Amount / Gateway Fee / Total summary', async () => {
    mockMoneyApi({ user: realUser({}, false) });
    show();
    expect((await screen.findByTestId('kyc-notice')).textContent).toContain('Please verify KYC to enable withdraw');
    const name = screen.getByRole('textbox', { name: /Account Name/ }) as HTMLInputElement;
    expect(name.value).toBe('Chris Client');
    expect(name.readOnly).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: /Amount/ }), { target: { value: '200' } });
    const summary = screen.getByTestId('withdraw-summary');
    expect(within(summary).getByText('Gateway Fee')).toBeTruthy();
    expect(within(summary).getByText('$200.00')).toBeTruthy();
    expect(within(summary).getByText('$5.00')).toBeTruthy();
    expect(within(summary).getByText('$205.00')).toBeTruthy();
  });

  it('names what is missing with the spec messages and sends nothing', async () => {
    const api = mockMoneyApi();
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw' }));
    for (const m of [
      'Amount is required',
      'Bank name is required',
      'Account number is required',
      'Swift code is required',
      'Bank country is required',
    ])
      expect(await screen.findByText(m)).toBeTruthy();
    expect(api.posted('/withdraws/bank')).toHaveLength(0);
  });

  it("posts the withdraw payload, shows the server's message and refreshes the user", async () => {
    const api = mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/withdraws/bank' ? { body: { message: 'Withdrawal requested' } } : undefined,
    );
    show();
    await fillIn();
    const before = userReads(api.calls);
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Withdrawal requested')).toBeTruthy();
    expect(api.posted('/withdraws/bank')[0].body).toEqual({
      balance_id: 12,
      amount: '200',
      bank_name: 'My Bank',
      account_name: 'Chris Client',
      account_number: 'GB00 1234',
      swift_code: 'MYBKGB22',
      bank_country: 'France',
    });
    await waitFor(() => expect(userReads(api.calls)).toBeGreaterThan(before));
  });

  it("shows the server's refusal and refreshes the user all the same", async () => {
    const api = mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/withdraws/bank'
        ? { status: 422, body: { message: 'Not enough free balance' } }
        : undefined,
    );
    show();
    await fillIn();
    const before = userReads(api.calls);
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Not enough free balance')).toBeTruthy();
    await waitFor(() => expect(userReads(api.calls)).toBeGreaterThan(before));
  });

  it('lists declined withdrawals with their reason behind "Show Reason" and the bank account', async () => {
    const row = {
      id: 5,
      created_at: '2026-11-20T10:00:00Z',
      amount: '200.00',
      fee: '5.00',
      total: '205.00',
      balance: { id: 12, currency: 'USD', mode: 'real' },
      balance_after: null,
      gateway: 'Bank',
      status: 'declined',
      description: null,
      reference: null,
      proof: null,
      decline_reason: 'Account name does not match',
      formattedDescription: {
        bankName: 'My Bank',
        accountName: 'Chris Client',
        accountNumber: 'GB00 1234',
        swiftCode: 'MYBKGB22',
        bankCountry: 'France',
      },
      user: { id: 7, email: 'chris.client@demo.test', full_name: 'Chris Client' },
      reviewed_at: null,
    };
    mockMoneyApi({}, (c) =>
      c.path === '/withdraws/history'
        ? { body: { data: [row], meta: { total: 1, per_page: 15, page: 1 } } }
        : undefined,
    );
    show();
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    const table = await screen.findByTestId('withdraws-history');
    expect(await within(table).findByText('Declined')).toBeTruthy();
    expect(within(table).getByText('My Bank, Chris Client, GB00 1234, MYBKGB22, France')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Show Reason' }));
    expect(await screen.findByText('Account name does not match')).toBeTruthy();
  });
});
