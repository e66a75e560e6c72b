import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { DashboardPage } from './DashboardPage.tsx';

afterEach(cleanup);

const data = {
  currency: 'USD',
  totalDeposits: '12500.00',
  totalWithdraws: '800.00',
  totalTrades: 42,
  totalUsers: 17,
  totalProLoss: '-350.25',
  otherCurrencies: [{ currency: 'EUR', deposits: '300.00', withdraws: '0.00', proLoss: '0.00' }],
  last7DaysTransactions: {
    categories: ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'],
    series: [
      { name: 'Deposits', data: [0, 1, 2, 3, 4, 5, 6] },
      { name: 'Withdraws', data: [0, 0, 1, 0, 0, 0, 0] },
    ],
  },
  tradeEngagement: { categories: ['forex', 'commodity', 'index', 'stock', 'crypto'], data: [20, 10, 5, 4, 3] },
};

describe('admin DashboardPage', () => {
  it('shows the five cards, the currency note and both charts', async () => {
    const { calls } = mockFetch(() => data);
    renderWithProviders(<DashboardPage />);
    expect((await screen.findByTestId('card-Total Deposits')).textContent).toBe('$12,500.00');
    expect(screen.getByTestId('card-Total Withdraws').textContent).toBe('$800.00');
    expect(screen.getByTestId('card-Total Trades').textContent).toBe('42');
    expect(screen.getByTestId('card-Total Users').textContent).toBe('17');
    expect(screen.getByTestId('card-Profit/Loss').textContent).toBe('-$350.25');
    expect(screen.getByTestId('dashboard-note').textContent).toMatch(
      /Totals in USD, real wallets only.*EUR deposits 300\.00/,
    );
    expect(screen.getByText('Recent Transactions')).toBeTruthy();
    expect(screen.getByText('Trade Engagement')).toBeTruthy();
    await waitFor(() => expect(calls[0].path).toBe('/admin/dashboard'));
    expect(calls[0].query.has('from')).toBe(false);
  });
});
