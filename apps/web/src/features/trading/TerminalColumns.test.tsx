import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dec, type HistoryEntry } from '@platform/domain';
import { currentUserFixture } from '../../test/fixtures.ts';
import { renderScreen } from '../../test/render.tsx';
import { PositionsTable, type PositionsTableProps } from './PositionsTable.tsx';
import { quoteStoreOf } from './quotes.ts';
import {
  instrumentsFixture,
  mockTradingFetch,
  orderFixture,
  pendingOrderFixture,
  tradingApi,
  type TradingApiOptions,
} from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { PendingOrdersPanel } = await import('./PendingOrdersPanel.tsx');
const { HistoryPanel } = await import('./HistoryPanel.tsx');

afterEach(() => localStorage.clear());

/** Forex trades in lots (as the demo's lot settings say), the other categories in units. */
const forexInLots: TradingApiOptions['extra'] = (_method, path) =>
  path === '/dashboard/lot-state/forex'
    ? { body: { lotState: 'lot', lotSelector: [{ label: 'Mini lot (0.1)', value: 10000 }] } }
    : undefined;

const eurUsd = orderFixture({ id: 101, trade_amount: '10000', swap: '-1.65', commission: '-0.70' });
const bitcoin = orderFixture({
  id: 102,
  instrument: 'BTC_USD',
  base_symbol: 'BTC',
  quote_symbol: 'USD',
  kind: 'crypto',
  trade_amount: '0.5',
  open_rate: '91000',
});

function showPositions(options: TradingApiOptions = {}, over: Partial<PositionsTableProps> = {}) {
  mockTradingFetch(tradingApi({ extra: forexInLots, ...options }));
  const props: PositionsTableProps = {
    rows: [eurUsd, bitcoin],
    variant: 'open',
    liveProfitLoss: new Map([[101, dec('3.5')]]),
    currency: 'USD',
    digitsOf: (name) => instrumentsFixture().find((i) => i.name === name)?.digits,
    onClosePosition: vi.fn(),
    onProtect: vi.fn(),
    closingId: null,
    emptyText: 'No open positions',
    ...over,
  };
  return renderScreen(<PositionsTable {...props} />);
}

const headings = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('terminal columns', () => {
  it('shows positions with ticket, lots where the category trades in lots, live current price, swap and commission', async () => {
    const { queryClient } = showPositions();
    const row = within(await screen.findByTestId('position-101'));
    expect(headings()).toEqual([
      'Ticket',
      'Time',
      'Instrument',
      'Type',
      'Amount',
      'Open Rate',
      'Current Price',
      'Stop Loss',
      'Take Profit',
      'Swap',
      'Commission',
      'P/L',
      'Actions',
    ]);
    expect(row.getByTestId('ticket-101').textContent).toBe('101');
    // 10,000 units of EUR/USD are a tenth of a 100,000 lot; the units show on hover.
    await waitFor(() => expect(row.getByTestId('amount-101').textContent).toBe('0.10 lot'));
    expect(row.getByTestId('amount-101').getAttribute('title')).toBe('10000 units');
    // Crypto trades in units here.
    expect(screen.getByTestId('amount-102').textContent).toBe('0.5');
    expect(row.getByTestId('swap-101').textContent).toBe('-$1.65');
    expect(row.getByTestId('commission-101').textContent).toBe('-$0.70');
    expect(row.getByTestId('current-101').textContent).toBe('-');
    // A buy closes at the bid, live.
    act(() =>
      quoteStoreOf(queryClient).apply([
        { name: 'EUR_USD', bids: 1.0861, asks: 1.0863, closeoutBid: 1.0861, closeoutAsk: 1.0863, time: Date.now() },
      ]),
    );
    expect(row.getByTestId('current-101').textContent).toBe('1.08610');
  });

  it("counts lots in the instrument's own contract size when staff set one", async () => {
    const instruments = instrumentsFixture().map((i) =>
      i.name === 'EUR_USD' ? Object.assign(i, { contract_size: '1000' }) : i,
    );
    showPositions({ instruments });
    await waitFor(() => expect(screen.getByTestId('amount-101').textContent).toBe('10.00 lot'));
  });

  it('hides and shows columns with the chooser, remembered for this user only; ticket and instrument stay', async () => {
    const first = showPositions();
    await screen.findByTestId('position-101');
    await waitFor(() => expect(screen.getByTestId('amount-101').textContent).toBe('0.10 lot'));
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = within(await screen.findByRole('group', { name: 'Columns', hidden: true }));
    // What names a row is not offered: it is always shown.
    expect(chooser.queryByRole('checkbox', { name: 'Ticket', hidden: true })).toBeNull();
    expect(chooser.queryByRole('checkbox', { name: 'Instrument', hidden: true })).toBeNull();
    fireEvent.click(chooser.getByRole('checkbox', { name: 'Swap', hidden: true }));
    fireEvent.click(chooser.getByRole('checkbox', { name: 'Status', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Swap' })).toBeNull());
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeTruthy();
    expect(localStorage.getItem('table-columns:terminal:user-7:positions-open')).toBe('{"swap":false,"status":true}');
    first.unmount();

    // The same user comes back: the choice holds (once the signed-in user is known).
    showPositions();
    await screen.findByTestId('position-101');
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Swap' })).toBeNull());
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Ticket' })).toBeTruthy();
  });

  it("gives another user of the browser the default columns, not the first one's choice", async () => {
    localStorage.setItem('table-columns:terminal:user-7:positions-open', '{"swap":false}');
    const other = currentUserFixture();
    other.user.id = 8;
    showPositions({ user: other });
    await screen.findByTestId('position-101');
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Swap' })).toBeTruthy());
  });

  it('lists pending orders in lots with the live price they wait for', async () => {
    mockTradingFetch(
      tradingApi({ extra: forexInLots, pendingOrders: [pendingOrderFixture({ id: 201, amount: '20000' })] }),
    );
    const { queryClient } = renderScreen(<PendingOrdersPanel digitsOf={() => 5} />);
    const row = within(await screen.findByTestId('pending-201'));
    expect(row.getByTestId('ticket-201').textContent).toBe('201');
    await waitFor(() => expect(row.getByTestId('amount-201').textContent).toBe('0.20 lot'));
    // A buy limit waits for the ask.
    act(() =>
      quoteStoreOf(queryClient).apply([
        { name: 'EUR_USD', bids: 1.0861, asks: 1.0863, closeoutBid: 1.0861, closeoutAsk: 1.0863, time: Date.now() },
      ]),
    );
    expect(row.getByTestId('current-201').textContent).toBe('1.08630');
    expect(screen.getByRole('button', { name: 'Columns' })).toBeTruthy();
  });

  it('lists the history with open and close time and price, and lots', async () => {
    const deal: HistoryEntry = {
      entry: 'deal',
      time: '2025-03-05T14:30:00Z',
      deal: orderFixture({
        id: 150,
        trade_amount: '150000',
        close_rate: '1.08500',
        close_time: '2025-03-05T14:30:00Z',
        pro_loss: '75',
      }),
    };
    mockTradingFetch(tradingApi({ extra: forexInLots, history: [deal] }));
    renderScreen(<HistoryPanel currency="USD" digitsOf={() => 5} />);
    const row = within(await screen.findByTestId('history-deal-150'));
    await waitFor(() => expect(row.getByTestId('amount-deal-150').textContent).toBe('1.50 lot'));
    expect(headings().slice(0, 8)).toEqual([
      'Ticket',
      'Open Time',
      'Close Time',
      'Instrument',
      'Type',
      'Amount',
      'Open Rate',
      'Close Rate',
    ]);
    expect(row.getByTestId('ticket-deal-150').textContent).toBe('150');
    expect(screen.getByRole('button', { name: 'Columns' })).toBeTruthy();
  });
});
