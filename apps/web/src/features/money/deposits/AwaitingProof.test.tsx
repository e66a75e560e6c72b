import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockMoneyApi, renderMoneyRoutes } from '../testing.tsx';
import { DepositsPage } from './DepositsPage.tsx';

afterEach(cleanup);

const waiting = {
  id: 31,
  created_at: '2026-11-20T10:00:00Z',
  amount: '250.00',
  fee: '0.00',
  total: '250.00',
  balance: { id: 12, currency: 'USD', mode: 'real' },
  balance_after: null,
  gateway: 'Bank',
  status: 'pending',
  description: 'Awaiting transfer details',
  reference: 'dp_waiting',
  proof: null,
  awaiting_proof: true,
  decline_reason: null,
  formattedDescription: null,
  user: { id: 7, email: 'chris.client@demo.test', full_name: 'Chris Client' },
  reviewed_at: null,
};

describe('deposit History: a bank deposit still waiting for its transfer details', () => {
  it('offers "Add transfer details", which opens the bank deposit page with its proof form', async () => {
    mockMoneyApi({}, (c) =>
      c.path === '/deposits/history'
        ? { body: { data: [waiting], meta: { total: 1, per_page: 15, page: 1 } } }
        : undefined,
    );
    renderMoneyRoutes([{ path: '/deposits', element: <DepositsPage /> }], '/deposits');
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    const table = await screen.findByTestId('deposits-history');
    const link = await within(table).findByRole('link', { name: 'Add transfer details' });
    expect(link.getAttribute('href')).toBe('/deposits/bank/31');
    fireEvent.click(link);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/deposits/bank/31'));
  }, 20_000);
});
