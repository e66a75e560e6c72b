import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { HistoryEntry } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, emitRealtime, mockTradingFetch, orderFixture, pendingOrderFixture, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { HistoryPanel } = await import('./HistoryPanel.tsx');

const partial: HistoryEntry = {
  entry: 'deal',
  time: '2025-03-05T14:30:00Z',
  deal: orderFixture({
    id: 150,
    trade_amount: '4000',
    close_rate: '1.08500',
    close_time: '2025-03-05T14:30:00Z',
    pro_loss: '20',
    close_reason: 'manual',
    partial_of: 101,
  }),
};
const stopped: HistoryEntry = {
  entry: 'deal',
  time: '2025-03-05T12:00:00Z',
  deal: orderFixture({
    id: 90,
    type: 'sell',
    close_rate: '1.09000',
    close_time: '2025-03-05T12:00:00Z',
    pro_loss: '-100',
    close_reason: 'stop_loss',
    swap: '-0.42',
    commission: '-1.4',
  }),
};
const filled: HistoryEntry = {
  entry: 'order',
  time: '2025-03-05T11:00:00Z',
  order: pendingOrderFixture({ id: 201, status: 'filled', fill_price: '1.07990000', order_id: 101 }),
};
const expired: HistoryEntry = {
  entry: 'order',
  time: '2025-03-05T10:00:00Z',
  order: pendingOrderFixture({
    id: 202,
    type: 'sell',
    order_type: 'stop',
    status: 'expired',
    reason: 'Expired at the end of the trading day',
  }),
};
const cancelled: HistoryEntry = {
  entry: 'order',
  time: '2025-03-05T09:00:00Z',
  order: pendingOrderFixture({ id: 203, status: 'cancelled', reason: 'Not enough free margin to fill' }),
};

function show(history: HistoryEntry[], total = history.length) {
  const fetchMock = mockTradingFetch((method, path, body, query) =>
    method === 'GET' && path === '/dashboard/orders/history'
      ? { body: { data: history, meta: { total, per_page: 15, page: Number(query.get('page')) } } }
      : tradingApi()(method, path, body, query),
  );
  renderScreen(<HistoryPanel currency="USD" digitsOf={() => 5} />);
  return fetchMock;
}

const cells = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('cell')
    .map((c) => c.textContent);

// Dialogs with many steps: room for a machine under load.
describe('HistoryPanel', { timeout: 20_000 }, () => {
  it('lists closed deals (with swap and commission), partial closes and ended pending orders with status and reason', async () => {
    show([partial, stopped, filled, expired, cancelled]);
    await screen.findByTestId('history-deal-150');
    expect(cells('history-deal-150')).toEqual([
      '150',
      '2025-03-04 9:15 AM',
      '2025-03-05 2:30 PM',
      'EUR/USD',
      'BUY',
      '4000',
      '1.08000',
      '1.08500',
      '$0.00',
      '$0.00',
      '$20.00000',
      'PARTIAL CLOSEPart of position #101',
    ]);
    expect(cells('history-deal-90').slice(8)).toEqual(['-$0.42', '-$1.40', '-$100.00000', 'CLOSEDStop loss']);
    expect(cells('history-order-201').slice(3)).toEqual([
      'EUR/USD',
      'Buy Limit',
      '10000',
      '1.08000',
      '-',
      '-',
      '-',
      '-',
      'FILLEDFilled at 1.07990',
    ]);
    expect(cells('history-order-202').slice(4, 5)).toEqual(['Sell Stop']);
    expect(cells('history-order-202').slice(11)).toEqual(['EXPIREDExpired at the end of the trading day']);
    expect(cells('history-order-203').slice(11)).toEqual(['CANCELLEDNot enough free margin to fill']);
  });

  it('pages through the history and reloads when a position closes or an order ends', async () => {
    const fetchMock = show([partial], 40);
    await screen.findByTestId('history-deal-150');
    expect(callsTo(fetchMock, 'GET', '/dashboard/orders/history')[0]?.query.get('limit')).toBe('15');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'GET', '/dashboard/orders/history').at(-1)?.query.get('page')).toBe('3'),
    );
    const before = callsTo(fetchMock, 'GET', '/dashboard/orders/history').length;
    emitRealtime('ordersChanged', { balanceId: 11, orderId: 101, reason: 'partial' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/dashboard/orders/history').length).toBeGreaterThan(before));
  });

  it('says when there is no history yet', async () => {
    show([]);
    expect(await screen.findByText('No history yet')).toBeTruthy();
  });
});
