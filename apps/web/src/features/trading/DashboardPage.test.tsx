import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUserFixture } from '../../test/fixtures.ts';
import { renderScreen } from '../../test/render.tsx';
import {
  callsTo,
  emitRealtime,
  mockTradingFetch,
  orderFixture,
  tradingApi,
  type TradingApiOptions,
} from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
// The canvas chart has no place in a DOM without layout; its symbol is what matters here.
vi.mock('./PriceChart.tsx', () => ({
  PriceChart: ({ symbol, interval }: { symbol: string; interval?: string }) => (
    <div data-testid="price-chart" data-interval={interval}>
      {symbol}
    </div>
  ),
}));
const { DashboardPage } = await import('./DashboardPage.tsx');

const closed = orderFixture({
  id: 90,
  type: 'sell',
  close_rate: '1.07000',
  close_time: '2025-03-05T14:30:00Z',
  pro_loss: '-12.5',
  close_reason: 'stop_loss',
});

function show(options: TradingApiOptions = {}) {
  const fetchMock = mockTradingFetch(
    tradingApi({ openOrders: [orderFixture()], allOrders: [orderFixture(), closed], ...options }),
  );
  renderScreen(<DashboardPage />);
  return fetchMock;
}

describe('DashboardPage', () => {
  it('charts USD/CNH by default with SELL at the bid and BUY at the ask, then the instrument picked', async () => {
    show();
    expect((await screen.findByTestId('price-chart')).textContent).toBe('USD_CNH');
    await waitFor(() => expect(screen.getByRole('button', { name: 'SELL' }).textContent).toBe('SELL7.24100'));
    expect(screen.getByRole('button', { name: 'BUY' }).textContent).toBe('BUY7.24220');
    fireEvent.click(screen.getByRole('button', { name: 'Show EUR/USD on the chart' }));
    await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('EUR_USD'));
    fireEvent.click(screen.getByRole('button', { name: 'BUY' }));
    expect(await screen.findByText('Buy Order')).toBeTruthy();
  });

  it('charts daily bars by default and switches to the timeframe picked, remembered for the next visit', async () => {
    localStorage.removeItem('chartInterval');
    show();
    const chart = await screen.findByTestId('price-chart');
    expect(chart.dataset.interval).toBe('1d');
    fireEvent.click(screen.getByText('4H'));
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset.interval).toBe('4h'));
    expect(localStorage.getItem('chartInterval')).toBe('4h');
    localStorage.removeItem('chartInterval');
  });

  it('shows open positions with live P/L to 5 decimals and closes one', async () => {
    const fetchMock = show({
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders/close'
          ? { body: { message: 'Order Closed Successfully' } }
          : undefined,
    });
    const row = within(await screen.findByTestId('position-101'));
    // Every open position is OPENED: Opened Positions leaves the chip in the column chooser.
    expect(row.queryByText('OPENED')).toBeNull();
    expect(row.getByTestId('ticket-101').textContent).toBe('101');
    expect(row.getByText('2025-03-04', { exact: false })).toBeTruthy();
    // Buy 10000 from 1.08000 closes at the bid 1.08510: 51 − spread cost 2
    await waitFor(() => expect(screen.getByTestId('pl-101').textContent).toBe('$49.00000'));
    emitRealtime('priceUpdate', [
      { name: 'EUR_USD', bids: 1.0795, asks: 1.0797, closeoutBid: 1.0795, closeoutAsk: 1.0797, time: 5 },
    ]);
    await waitFor(() => expect(screen.getByTestId('pl-101').textContent).toBe('-$7.00000'));
    expect(screen.getByTestId('pl-101').getAttribute('style')).toContain('red');

    fireEvent.click(row.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Order Closed Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders/close')[0]?.body).toEqual({
      orderId: 101,
      instrument: 'EUR_USD',
    });
  });

  it('lists closed positions with their result and why they closed', async () => {
    show();
    fireEvent.click(await screen.findByRole('tab', { name: 'All Positions' }));
    const row = within(await screen.findByTestId('position-90'));
    expect(row.getByText('CLOSED')).toBeTruthy();
    expect(row.getByText('Stop loss')).toBeTruthy();
    expect(row.getByText('-$12.50000')).toBeTruthy();
    expect(row.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('reloads positions and wallet when the server reports a change', async () => {
    const fetchMock = show();
    await screen.findByTestId('position-101');
    const before = callsTo(fetchMock, 'GET', '/dashboard/orders').length;
    emitRealtime('ordersChanged', { balanceId: 11, orderId: 101, reason: 'stop_out' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/dashboard/orders').length).toBeGreaterThan(before));
  });

  it('opens the stop-loss dialog of a position', async () => {
    show();
    fireEvent.click(within(await screen.findByTestId('position-101')).getByRole('button', { name: 'Set Stop/Loss' }));
    expect(await screen.findByRole('textbox', { name: 'Stop Loss' })).toBeTruthy();
  });

  it('asks for KYC on a real wallet and shows the pricing plan', async () => {
    const user = currentUserFixture();
    user.isKyc = false;
    user.activeBalance = user.user.balances.find((b) => b.mode === 'real')!;
    user.user.pricingTable = {
      id: 1,
      name: 'Basic',
      description: null,
      price: '0',
      forex_leverage: 200,
      commodity_leverage: null,
      index_leverage: null,
      stock_leverage: null,
      crypto_leverage: null,
      forex_stopout: null,
      commodity_stopout: null,
      index_stopout: null,
      stock_stopout: null,
      crypto_stopout: null,
    };
    show({ user });
    const banner = await screen.findByTestId('kyc-banner');
    expect(banner.textContent).toContain('Please verify KYC to enable trading');
    expect(within(banner).getByRole('link', { name: 'Click here' }).getAttribute('href')).toBe('/kyc');
    const plan = within(await screen.findByTestId('pricing-plan-panel'));
    expect(plan.getByText('Basic')).toBeTruthy();
    expect(plan.getByText('1:200')).toBeTruthy();
    expect(plan.getByRole('link', { name: 'Change Plan' }).getAttribute('href')).toBe('/pricing');
  });

  // The server refuses an order for want of KYC only on a real wallet of a customer, with KYC Required For Trade on.
  const unverified = (wallet: 'demo' | 'real') => {
    const user = currentUserFixture();
    user.isKyc = false;
    user.activeBalance = user.user.balances.find((b) => b.mode === wallet)!;
    return user;
  };
  it.each([
    ['on a demo wallet', unverified('demo')],
    ['to staff', { ...unverified('real'), user: { ...unverified('real').user, role_id: 2 } }],
    [
      'while KYC Required For Trade is off',
      { ...unverified('real'), kycRequired: { deposit: true, withdraw: true, trade: false } },
    ],
  ])('shows no KYC banner %s', async (_, user) => {
    show({ user });
    await screen.findByTestId('position-101');
    expect(screen.queryByTestId('kyc-banner')).toBeNull();
  });
});
