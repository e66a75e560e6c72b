import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/render.tsx';
import type { ChartLine } from './chartLines.ts';
import { callsTo, mockTradingFetch, orderFixture, pendingOrderFixture, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
/** The canvas chart stands in as a list of its lines, each with a button that drops it 0.001 lower. */
const drops: Array<Promise<unknown>> = [];
vi.mock('./PriceChart.tsx', () => ({
  PriceChart: ({
    lines = [],
    onLineDrop,
  }: {
    lines?: ChartLine[];
    onLineDrop?: (l: ChartLine, p: number) => Promise<unknown>;
  }) => (
    <ul data-testid="chart-lines">
      {lines.map((l) => (
        <li key={l.id}>
          {`${l.id} ${l.title} ${l.price}${l.target ? ' draggable' : ''}`}
          {l.target && (
            <button type="button" onClick={() => drops.push(onLineDrop!(l, l.price - 0.001).catch(() => 'snapped'))}>
              {`drag ${l.id}`}
            </button>
          )}
        </li>
      ))}
    </ul>
  ),
}));
const { DashboardPage } = await import('./DashboardPage.tsx');

function show(status = 200) {
  const fetchMock = mockTradingFetch(
    tradingApi({
      openOrders: [orderFixture({ loss: '1.07000', profit: '1.10000' })],
      pendingOrders: [pendingOrderFixture({ id: 202, type: 'sell', order_type: 'stop', price: '1.08200' })],
      extra: (method, path) =>
        method === 'PUT'
          ? status === 200
            ? { body: { message: path.includes('pending') ? 'Pending order modified' : 'ok' } }
            : { status, body: { message: 'The stop-loss of a buy must be below the bid.' } }
          : undefined,
    }),
  );
  renderScreen(<DashboardPage />);
  return fetchMock;
}

async function chartEurUsd() {
  fireEvent.click(await screen.findByRole('button', { name: 'Show EUR/USD on the chart' }));
  await screen.findByText(/^pending-202/);
}

// Dialogs with many steps: room for a machine under load.
describe('chart lines', { timeout: 20_000 }, () => {
  it("draws the charted instrument's entry, SL, TP and pending price", async () => {
    show();
    await chartEurUsd();
    const lines = screen.getAllByRole('listitem').map((l) => l.firstChild?.textContent);
    expect(lines).toEqual([
      'entry-101 BUY 10000 1.08',
      'loss-101 SL #101 1.07 draggable',
      'profit-101 TP #101 1.1 draggable',
      'pending-202 Sell Stop 10000 1.082 draggable',
    ]);
  });

  it('modifies the stop-loss and the pending price a line is dragged to', async () => {
    const fetchMock = show();
    await chartEurUsd();
    fireEvent.click(screen.getByRole('button', { name: 'drag loss-101' }));
    expect(await screen.findByText('Stop Loss Set Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/orders/101')[0]?.body).toEqual({ loss: '1.069' });
    fireEvent.click(screen.getByRole('button', { name: 'drag pending-202' }));
    expect(await screen.findByText('Pending order modified')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/pending-orders/202')[0]?.body).toEqual({ price: '1.081' });
  });

  it("shows the server's refusal and snaps the line back", async () => {
    show(400);
    await chartEurUsd();
    drops.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'drag loss-101' }));
    expect(await screen.findByText('The stop-loss of a buy must be below the bid.')).toBeTruthy();
    await waitFor(async () => expect(await drops[0]).toBe('snapped'));
  });
});
