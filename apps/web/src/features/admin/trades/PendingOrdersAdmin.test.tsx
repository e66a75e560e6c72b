import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { TradesPage } from './TradesPage.tsx';

vi.mock('../../../api/realtime.ts', async () => ({
  ...(await import('../../trading/testing.ts')).realtimeModule,
  getSocket: () => ({ connected: true, emit: vi.fn(), on: vi.fn(), off: vi.fn() }),
}));

afterEach(cleanup);

const pending = (over: Record<string, unknown> = {}) => ({
  id: 31,
  balance_id: 4,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  type: 'buy',
  order_type: 'stop_limit',
  instrument: 'EUR_USD',
  kind: 'forex',
  amount: '1000.00000000',
  price: '1.10000000',
  limit_price: '1.09900000',
  profit: null,
  loss: null,
  expiry: 'gtc',
  expires_at: null,
  status: 'pending',
  reason: null,
  activated_at: null,
  oco_id: null,
  order_id: null,
  fill_price: null,
  closed_at: null,
  user: { id: 9, email: 'cara@demo.test' },
  balance: { mode: 'real', currency: 'USD' },
  ...over,
});

function render(handler: (c: FetchCall) => unknown, route = '/admin/trades/pending') {
  const mock = mockFetch(handler);
  renderWithProviders(
    <Routes>
      <Route path="/admin/trades/:type" element={<TradesPage />} />
    </Routes>,
    { route },
  );
  return mock;
}

const list = (rows: unknown[]) => ({ data: rows, meta: { total: rows.length, per_page: 15, page: 1 } });

// Dialogs with many steps: room for a machine under load.
describe('Trades → Pending Orders', { timeout: 20_000 }, () => {
  it('lists the pending orders of every customer, waiting ones first, from a tab beside the trade lists', async () => {
    const { calls } = render((c) =>
      c.path === '/admin/pending-orders'
        ? list([pending(), pending({ id: 32, status: 'filled', order_type: 'limit', limit_price: null })])
        : list([]),
    );
    const row = (await screen.findAllByText('cara@demo.test'))[0].closest('tr') as HTMLElement;
    expect(
      screen.getAllByRole('tab').map((t) => [t.textContent, (t as HTMLElement).dataset.active === 'true']),
    ).toEqual([
      ['All Trades', false],
      ['Open Trades', false],
      ['Closed Trades', false],
      ['Pending Orders', true],
    ]);
    for (const h of ['USER', 'TYPE', 'INSTRUMENT', 'AMOUNT', 'PRICE', 'EXPIRY', 'STATUS', 'ACTIONS'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    await showAllColumns();
    for (const h of ['LIMIT PRICE', 'STOP LOSS', 'TAKE PROFIT', 'REASON', 'CREATED'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(row).getByText('Buy Stop Limit')).toBeTruthy();
    expect(within(row).getByText('1.099')).toBeTruthy();
    expect(within(row).getByTitle('Good till cancelled').textContent).toBe('GTC');
    expect(within(row).getByText('PENDING')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'cara@demo.test' }).getAttribute('href')).toBe(
      '/admin/customers/edit/9',
    );
    // A filled order has nothing to cancel.
    const filled = screen
      .getAllByText('FILLED')
      .map((e) => e.closest('tr'))
      .find(Boolean) as HTMLElement;
    expect(within(filled).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    // Waiting ones are shown first.
    expect(calls.find((c) => c.path === '/admin/pending-orders')?.query.get('status')).toBe('pending');
  });

  it('filters by status and by customer', async () => {
    const { calls } = render(() => list([pending()]), '/admin/trades/pending?userId=9');
    await screen.findByText('cara@demo.test');
    expect(screen.getByText('Customer #9')).toBeTruthy();
    expect(calls.at(-1)?.query.get('userId')).toBe('9');
    fireEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'CANCELLED', hidden: true }));
    await waitFor(() => expect(calls.at(-1)?.query.get('status')).toBe('cancelled'));
    fireEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'All statuses', hidden: true }));
    await waitFor(() => expect(calls.at(-1)?.query.has('status')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Show every customer' }));
    await waitFor(() => expect(calls.at(-1)?.query.has('userId')).toBe(false));
  });

  it('cancels a waiting order with a required reason', async () => {
    const { calls } = render((c) =>
      c.method === 'POST' ? { message: 'Pending order cancelled by staff' } : list([pending()]),
    );
    const row = (await screen.findByText('cara@demo.test')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel order' }));
    const yes = (await screen.findByRole('button', { name: 'Yes', hidden: true })) as HTMLButtonElement;
    expect(yes.disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason', hidden: true }), {
      target: { value: 'Client asked by phone' },
    });
    fireEvent.click(yes);
    expect(await screen.findByText('Pending order cancelled by staff')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/admin/pending-orders/31/cancel',
      body: { reason: 'Client asked by phone' },
    });
  });

  it('switches to the trade lists with the tabs', async () => {
    const { calls } = render(() => list([]));
    fireEvent.click(await screen.findByRole('tab', { name: 'Open Trades' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/trades/api/open')).toBe(true));
  });
});
