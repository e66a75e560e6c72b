import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { TRADE_PL_EVENT, TRADE_PL_WATCH } from '@platform/domain';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { emitRealtime } from '../../trading/testing.ts';
import { TradesPage } from './TradesPage.tsx';

/** The socket the page asks to watch its open trades on. */
const socket = vi.hoisted(() => ({ connected: true, emit: vi.fn(), on: vi.fn(), off: vi.fn() }));
vi.mock('../../../api/realtime.ts', async () => ({
  ...(await import('../../trading/testing.ts')).realtimeModule,
  getSocket: () => socket,
}));

afterEach(cleanup);

const trade = (over: Record<string, unknown> = {}) => ({
  id: 5,
  user: { id: 9, email: 'cara@demo.test' },
  balance: { mode: 'real', currency: 'USD' },
  type: 'buy',
  instrument: 'EUR_USD',
  trade_amount: '1000.00000000',
  open_rate: '1.10000000',
  close_rate: null,
  spread: '0.20000000',
  margin_used: '11.00000000',
  pro_loss: null,
  swap: '0.00000000',
  commission: '0.00000000',
  live_pl: null,
  profit: null,
  loss: '1.05000000',
  leverage: 100,
  created_at: '2026-11-20T10:00:00.000Z',
  close_time: null,
  ...over,
});

function render(handler: (c: FetchCall) => unknown) {
  const mock = mockFetch(handler);
  renderWithProviders(
    <Routes>
      <Route path="/admin/trades/:type" element={<TradesPage />} />
    </Routes>,
    { route: '/admin/trades/all' },
  );
  return mock;
}

// Many columns and a confirmation: room for a machine under load.
describe('TradesPage', { timeout: 20_000 }, () => {
  it('lists trades with the spec columns, coloured P/L, the user link and the close action', async () => {
    const { calls } = render((c) =>
      c.method === 'POST'
        ? { message: 'Order closed successfully', trade: trade() }
        : {
            data: [
              trade(),
              trade({
                id: 6,
                close_time: '2026-11-21T10:00:00.000Z',
                close_rate: '1.09',
                pro_loss: '-10.00000000',
                swap: '-3.30416667',
                commission: '-1.40000000',
                balance: { mode: 'demo', currency: 'USD' },
              }),
            ],
            meta: { total: 2, per_page: 15, page: 1 },
          },
    );
    const open = (await screen.findAllByText('cara@demo.test'))[0].closest('tr') as HTMLElement;
    await showAllColumns();
    for (const h of [
      'ID',
      'USER',
      'TYPE',
      'INSTRUMENT',
      'OPEN RATE',
      'CLOSE RATE',
      'SPREAD',
      'MARGIN USED',
      'PRO/LOSS',
      'SWAP',
      'COMMISSION',
      'TAKE PROFIT',
      'STOP LOSS',
      'LEVERAGE',
      'STATUS',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(open).getByRole('link', { name: 'cara@demo.test' }).getAttribute('href')).toBe(
      '/admin/customers/edit/9',
    );
    expect(within(open).getByText('Real')).toBeTruthy();
    expect(screen.getByText('Demo')).toBeTruthy();
    expect(screen.getByText('-10')).toBeTruthy();
    // Swap and commission to the cent; the swap's exact figure on hover.
    expect(screen.getByText('-3.30').getAttribute('title')).toBe('-3.30416667');
    expect(screen.getByText('-1.40')).toBeTruthy();
    fireEvent.click(within(open).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Are you sure to close this order?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/admin/trades/close')).toBe(true));
    expect(await screen.findByText('Order closed successfully')).toBeTruthy();
  });

  it("shows an open trade's floating P/L from the list, watches it and follows the live figures", async () => {
    render(() => ({
      data: [
        trade({ live_pl: '12.34560000' }),
        trade({ id: 6, close_time: '2026-11-21T10:00:00.000Z', close_rate: '1.09', pro_loss: '-10.00000000' }),
      ],
      meta: { total: 2, per_page: 15, page: 1 },
    }));
    const cell = await screen.findByTitle('Floating P/L');
    expect(cell.textContent).toBe('12.3456');
    // Only the open trade is watched; the closed one keeps its booked P/L.
    await waitFor(() => expect(socket.emit).toHaveBeenCalledWith(TRADE_PL_WATCH, { ids: [5] }));
    expect(screen.getByText('-10')).toBeTruthy();
    emitRealtime(TRADE_PL_EVENT, { pl: { 5: '-3.21000000' } });
    await waitFor(() => expect(screen.getByTitle('Floating P/L').textContent).toBe('-3.21'));
  });

  it('keeps the close rate of an open trade disabled in Edit Order and sends the levels', async () => {
    const { calls } = render((c) =>
      c.method === 'PUT'
        ? { message: 'Order updated successfully', trade: trade() }
        : { data: [trade()], meta: { total: 1, per_page: 15, page: 1 } },
    );
    const row = (await screen.findByText('cara@demo.test')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const closeRate = await screen.findByRole('textbox', { name: 'Close Rate' });
    expect((closeRate as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Orders that are still open cannot edit this field.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Take Profit' }), { target: { value: '1.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
        profit: '1.2',
        loss: '1.05000000',
        openTime: '2026-11-20T10:00',
      }),
    );
  });
});
