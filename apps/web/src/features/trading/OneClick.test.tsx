import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/render.tsx';
import { LAST_AMOUNT_KEY, ONE_CLICK_KEY, rememberAmount } from './oneClick.ts';
import { callsTo, mockTradingFetch, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
vi.mock('./PriceChart.tsx', () => ({ PriceChart: ({ symbol }: { symbol: string }) => <div>{symbol}</div> }));
const { DashboardPage } = await import('./DashboardPage.tsx');

afterEach(() => {
  localStorage.removeItem(ONE_CLICK_KEY);
  localStorage.removeItem(LAST_AMOUNT_KEY);
});

function show() {
  const fetchMock = mockTradingFetch(
    tradingApi({
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders'
          ? { body: { message: 'Order Placed Successfully', order: {} } }
          : undefined,
    }),
  );
  renderScreen(<DashboardPage />);
  return fetchMock;
}
const toggle = () => screen.getByRole('switch', { name: 'One-click trading' }) as HTMLInputElement;

// Dialogs with many steps: room for a machine under load.
describe('one-click trading', { timeout: 20_000 }, () => {
  it('is off by default: BUY opens the order dialog', async () => {
    show();
    await waitFor(() => expect(screen.getByRole('button', { name: 'BUY' }).textContent).toBe('BUY7.24220'));
    expect(toggle().checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'BUY' }));
    expect(await screen.findByText('Buy Order')).toBeTruthy();
  });

  it('asks to confirm before turning on; cancelling leaves it off', async () => {
    show();
    fireEvent.click(await screen.findByRole('switch', { name: 'One-click trading' }));
    expect(await screen.findByText('Turn on one-click trading?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Turn on one-click trading?')).toBeNull());
    expect(toggle().checked).toBe(false);
    expect(localStorage.getItem(ONE_CLICK_KEY)).toBeNull();
  });

  it('once confirmed, SELL and the list buttons send a market order with the last amount at once', async () => {
    rememberAmount('USD_CNH', '2000');
    rememberAmount('EUR_USD', '5000');
    const fetchMock = show();
    await waitFor(() => expect(screen.getByRole('button', { name: 'SELL' }).textContent).toBe('SELL7.24100'));
    fireEvent.click(toggle());
    fireEvent.click(await screen.findByRole('button', { name: 'I understand, turn it on' }));
    await waitFor(() => expect(toggle().checked).toBe(true));
    // Remembered in this browser.
    expect(localStorage.getItem(ONE_CLICK_KEY)).toBe('on');

    fireEvent.click(screen.getByRole('button', { name: 'SELL' }));
    expect(await screen.findByText('Order Placed Successfully')).toBeTruthy();
    expect(screen.queryByText('Sell Order')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Buy EUR/USD' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/dashboard/orders')).toHaveLength(2));
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders').map((c) => c.body)).toEqual([
      { type: 'sell', instrument: 'USD_CNH', amount: '2000', profit: null, loss: null },
      { type: 'buy', instrument: 'EUR_USD', amount: '5000', profit: null, loss: null },
    ]);

    // An instrument never traded here still opens the dialog, to choose the amount.
    fireEvent.click(screen.getByRole('button', { name: 'Buy EUR/GBP' }));
    expect(await screen.findByText('Buy Order')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')).toHaveLength(2);
  });

  it('turns off at once, and the dialog is back', async () => {
    localStorage.setItem(ONE_CLICK_KEY, 'on');
    rememberAmount('USD_CNH', '2000');
    const fetchMock = show();
    await waitFor(() => expect(toggle().checked).toBe(true));
    fireEvent.click(toggle());
    await waitFor(() => expect(toggle().checked).toBe(false));
    expect(localStorage.getItem(ONE_CLICK_KEY)).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'BUY' }).textContent).toBe('BUY7.24220'));
    fireEvent.click(screen.getByRole('button', { name: 'BUY' }));
    expect(await screen.findByText('Buy Order')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')).toHaveLength(0);
  });
});
