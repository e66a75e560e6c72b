import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PendingOrderDto } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { tradingKeys } from './api.ts';
import {
  callsTo,
  emitRealtime,
  mockTradingFetch,
  pendingOrderFixture,
  tradingApi,
  type TradingResponder,
} from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { PendingOrdersPanel } = await import('./PendingOrdersPanel.tsx');

const phone = (matches: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
afterEach(() => vi.unstubAllGlobals());

const limit = pendingOrderFixture({ id: 201, loss: '1.07000000', profit: '1.10000000' });
const stopLimit = pendingOrderFixture({
  id: 202,
  type: 'sell',
  order_type: 'stop_limit',
  price: '1.08000000',
  limit_price: '1.08100000',
  expiry: 'date',
  expires_at: '2025-03-06T17:00:00Z',
});

function show(rows: PendingOrderDto[], extra?: TradingResponder) {
  let list = rows;
  const fetchMock = mockTradingFetch((method, path, body, query) => {
    if (method === 'GET' && path === '/dashboard/pending-orders') return { body: { data: list } };
    return extra?.(method, path, body, query) ?? tradingApi()(method, path, body, query);
  });
  const { queryClient } = renderScreen(<PendingOrdersPanel digitsOf={() => 5} />);
  return { fetchMock, queryClient, setRows: (r: PendingOrderDto[]) => (list = r) };
}

// Dialogs with many steps: room for a machine under load.
describe('PendingOrdersPanel', { timeout: 20_000 }, () => {
  it('lists ticket, time, instrument, type, amount, prices, SL, TP, expiry and status', async () => {
    show([limit, stopLimit]);
    const row = within(await screen.findByTestId('pending-201'));
    const cells = row.getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 11)).toEqual([
      '201',
      '2025-03-04 10:00 AM',
      'EUR/USD',
      'Buy Limit',
      '10000',
      '1.08000',
      // No quote yet: the live price it waits for shows once one arrives.
      '-',
      '1.07000',
      '1.10000',
      'GTC',
      'PENDING',
    ]);
    expect(row.getByTestId('sl-201').textContent).toBe('1.07000');
    expect(row.getByTestId('tp-201').textContent).toBe('1.10000');
    expect(screen.getByRole('columnheader', { name: 'Order price' })).toBeTruthy();
    const second = within(screen.getByTestId('pending-202'));
    expect(second.getByText('Sell Stop Limit')).toBeTruthy();
    expect(second.getByTestId('limit-202').textContent).toBe('Limit 1.08100');
    expect(second.getByText('Until')).toBeTruthy();
    expect(second.getByText(/2025-03-06/)).toBeTruthy();
  });

  it('says when there is nothing pending, and reloads when the server reports a change', async () => {
    const { fetchMock, queryClient, setRows } = show([]);
    expect(await screen.findByText('No pending orders')).toBeTruthy();
    queryClient.setQueryData(tradingKeys.openOrders, []);
    setRows([limit]);
    emitRealtime('pendingOrdersChanged', { balanceId: 11, pendingOrderId: 201, status: 'pending' });
    expect(await screen.findByTestId('pending-201')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', '/dashboard/pending-orders').length).toBe(2);
    expect(queryClient.getQueryState(tradingKeys.openOrders)?.isInvalidated).toBe(false);
    // A fill also reloads the positions and the wallet.
    setRows([]);
    emitRealtime('pendingOrdersChanged', { balanceId: 11, pendingOrderId: 201, status: 'filled' });
    await waitFor(() => expect(screen.queryByTestId('pending-201')).toBeNull());
    expect(queryClient.getQueryState(tradingKeys.openOrders)?.isInvalidated).toBe(true);
  });

  it('cancels after a confirmation, with the server message', async () => {
    const { fetchMock } = show([limit], (method, path) =>
      method === 'DELETE' && path === '/dashboard/pending-orders/201'
        ? { body: { message: 'Pending order cancelled' } }
        : undefined,
    );
    fireEvent.click(within(await screen.findByTestId('pending-201')).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Cancel this pending order?')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/dashboard/pending-orders/201')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Pending order cancelled')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/dashboard/pending-orders/201')).toHaveLength(1);
  });

  it('modifies the price and removes the stop-loss, sending only what changed', async () => {
    const { fetchMock } = show([limit], (method, path) =>
      method === 'PUT' && path === '/dashboard/pending-orders/201'
        ? { body: { ...limit, message: 'Pending order modified' } }
        : undefined,
    );
    fireEvent.click(within(await screen.findByTestId('pending-201')).getByRole('button', { name: 'Modify' }));
    const price = (await screen.findByRole('textbox', { name: 'Order price' })) as HTMLInputElement;
    expect(price.value).toBe('1.08');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(price, { target: { value: '1.079' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Stop Loss' }));
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    expect(await screen.findByText('Pending order modified')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/pending-orders/201')[0]?.body).toEqual({ price: '1.079', loss: null });
  });

  it("shows the server's refusal of a modification as it is", async () => {
    const message = 'A Buy Limit must be below the ask (1.08530).';
    show([limit], (method, path) =>
      method === 'PUT' && path === '/dashboard/pending-orders/201' ? { status: 400, body: { message } } : undefined,
    );
    fireEvent.click(within(await screen.findByTestId('pending-201')).getByRole('button', { name: 'Modify' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Order price' }), { target: { value: '1.09' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('links two orders as OCO and shows each one its partner', async () => {
    const { fetchMock, setRows } = show([limit, stopLimit], (method, path) =>
      method === 'POST' && path === '/dashboard/pending-orders/oco'
        ? { body: { message: 'Orders linked', data: [] } }
        : undefined,
    );
    fireEvent.click(within(await screen.findByTestId('pending-201')).getByRole('button', { name: 'Link OCO' }));
    fireEvent.click(await screen.findByRole('combobox', { name: 'One cancels the other with' }));
    fireEvent.click(await screen.findByRole('option', { name: /#202 Sell Stop Limit/, hidden: true }));
    setRows([
      { ...limit, oco_id: 1 },
      { ...stopLimit, oco_id: 1 },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Orders linked')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/pending-orders/oco')[0]?.body).toEqual({ ids: [201, 202] });
    await waitFor(() => expect(screen.getByTestId('oco-201').textContent).toBe('OCO #202'));
    expect(screen.getByTestId('oco-202').textContent).toBe('OCO #201');
    const linkButton = within(screen.getByTestId('pending-201')).getByRole('button', { name: 'Link OCO' });
    expect((linkButton as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows cards with the actions on a phone', async () => {
    phone(true);
    show([limit]);
    const card = within(await screen.findByTestId('pending-201'));
    expect(screen.getByTestId('pending-cards')).toBeTruthy();
    expect(card.getByText('Buy Limit')).toBeTruthy();
    expect(card.getByText('SL 1.07000 · TP 1.10000')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Cancel order' })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Modify' })).toBeTruthy();
  });
});
