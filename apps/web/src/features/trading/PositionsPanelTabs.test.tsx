import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, mockTradingFetch, orderFixture, pendingOrderFixture, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
vi.mock('./PriceChart.tsx', () => ({ PriceChart: ({ symbol }: { symbol: string }) => <div>{symbol}</div> }));
// The alerts area is tested on its own; here only what the tab hands it.
vi.mock('./alerts/AlertsPanel.tsx', () => ({
  AlertsPanel: ({ instrument }: { instrument?: { name: string } }) => (
    <div data-testid="alerts-panel">{instrument?.name}</div>
  ),
}));
const { DashboardPage } = await import('./DashboardPage.tsx');

function show() {
  const fetchMock = mockTradingFetch(
    tradingApi({
      openOrders: [orderFixture({ trailing_distance: '0.00200000', trailing_step: '0', loss: '1.07000' })],
      pendingOrders: [pendingOrderFixture(), pendingOrderFixture({ id: 202, order_type: 'stop', price: '1.09' })],
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders/close'
          ? { body: { message: 'Closed 5000 of the position' } }
          : undefined,
    }),
  );
  renderScreen(<DashboardPage />);
  return fetchMock;
}

// Dialogs with many steps: room for a machine under load.
describe('positions area tabs', { timeout: 20_000 }, () => {
  it('keeps All Positions and Opened Positions and adds Pending Orders (counted), Alerts and History', async () => {
    show();
    await screen.findByTestId('position-101');
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs.slice(-5)).toEqual(['All Positions', 'Opened Positions1', 'Pending Orders2', 'Alerts', 'History']);
    expect((screen.getByRole('tab', { name: /^Opened Positions/ }) as HTMLElement).dataset.active).toBe('true');

    fireEvent.click(screen.getByRole('tab', { name: /^Pending Orders/ }));
    expect(await screen.findByTestId('pending-202')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Alerts' }));
    // The alerts start on the charted instrument.
    expect((await screen.findByTestId('alerts-panel')).textContent).toBe('USD_CNH');
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByText('No history yet')).toBeTruthy();
  });

  it('marks a trailing stop-loss and closes part of a position, which the History tab then shows afresh', async () => {
    const fetchMock = show();
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    await screen.findByText('No history yet');
    fireEvent.click(screen.getByRole('tab', { name: /^Opened Positions/ }));
    const row = within(await screen.findByTestId('position-101'));
    expect(row.getByTestId('trailing-101').textContent).toBe('1.07000 ⤴');
    fireEvent.click(row.getByRole('button', { name: 'Partial Close' }));
    const amount = (await screen.findByRole('textbox', { name: 'Amount to close' })) as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '5000' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Close 5000' }));
    expect(await screen.findByText('Closed 5000 of the position')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders/close')[0]?.body).toEqual({
      orderId: 101,
      instrument: 'EUR_USD',
      amount: '5000',
    });
    const before = callsTo(fetchMock, 'GET', '/dashboard/orders/history').length;
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/dashboard/orders/history').length).toBe(before + 1));
  });
});
