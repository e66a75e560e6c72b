import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, showAllColumns } from '../../../../ui/data-table/testing.tsx';
import { BANK, moneyRecord, paged } from '../fixtures.ts';
import { WithdrawHistoryPage } from './WithdrawHistoryPage.tsx';

afterEach(cleanup);

describe('WithdrawHistoryPage', () => {
  it('lists withdrawals with decline reasons and status chips, without a search box', async () => {
    const { calls } = mockFetch(() =>
      paged([
        moneyRecord({
          id: 31,
          gateway: 'bank',
          status: 'declined',
          decline_reason: 'Wrong IBAN',
          formattedDescription: BANK,
        }),
        moneyRecord({
          id: 32,
          gateway: 'bank',
          status: 'approved',
          formattedDescription: BANK,
          description: 'Paid out',
        }),
      ]),
    );
    renderWithProviders(<WithdrawHistoryPage />);
    const declined = (await screen.findByText('Wrong IBAN')).closest('tr') as HTMLElement;
    await showAllColumns();
    for (const h of [
      'ID',
      'USER',
      'GATEWAY',
      'DESCRIPTION',
      'DECLINE REASON',
      'AMOUNT',
      'FEE',
      'TOTAL',
      'STATUS',
      'Date',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: /ACTION/ })).toBeNull();
    expect(within(declined).getByText('Declined')).toBeTruthy();
    expect(within(declined).getByText('€102.50')).toBeTruthy();
    const approved = screen.getByText('Paid out').closest('tr') as HTMLElement;
    expect(within(approved).getByText('Approved')).toBeTruthy();
    expect(within(approved).getAllByRole('cell')[4].textContent).toBe('-');
    expect(screen.queryByRole('textbox', { name: 'Search' })).toBeNull();
    expect(calls[0].path).toBe('/admin/withdraws/api/history');
    expect(calls[0].query.has('search')).toBe(false);
  });
});
