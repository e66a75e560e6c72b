import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dec } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { PositionsTable, type PositionsTableProps } from './PositionsTable.tsx';
import { quoteStoreOf } from './quotes.ts';
import { mockTradingFetch, orderFixture, tradingApi } from './testing.ts';

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

const open = orderFixture({
  id: 101,
  type: 'sell',
  open_rate: '1.08000',
  profit: '1.07000',
  loss: '1.09000',
  swap: '-1.65000000',
});
const closed = orderFixture({
  id: 102,
  close_time: '2025-03-05T14:30:00Z',
  close_rate: '1.08500',
  pro_loss: '48',
  close_reason: 'stop_loss',
  commission: '-1.40000000',
});

function show(over: Partial<PositionsTableProps> = {}) {
  const props: PositionsTableProps = {
    rows: [open, closed],
    variant: 'all',
    liveProfitLoss: new Map([[101, dec('-12.5')]]),
    currency: 'USD',
    digitsOf: () => 5,
    onClosePosition: vi.fn(),
    onProtect: vi.fn(),
    closingId: null,
    emptyText: 'No positions yet',
    ...over,
  };
  mockTradingFetch(tradingApi());
  const view = renderScreen(<PositionsTable {...props} />);
  return { props, ...view };
}

describe('PositionsTable on a phone', () => {
  it('shows each position as a card with side, amount, open and live current price, live P/L and the close action', async () => {
    phone(true);
    const { props, queryClient } = show();
    expect(screen.queryByRole('table')).toBeNull();
    const card = await screen.findByTestId('position-101');
    expect(card.textContent).toContain('EUR/USD');
    expect(card.textContent).toContain('SELL');
    // Units once the lot mode of forex is known (amount mode here).
    await waitFor(() => expect(within(card).getByTestId('amount-101').textContent).toBe('10000'));
    expect(card.textContent).toContain('1.08000');
    expect(within(card).getByTestId('pl-101').textContent).toBe('-$12.50000');
    expect(within(card).getByTestId('current-101').textContent).toBe('-');
    // The current price of a sell is the ask, and follows the live quotes.
    act(() =>
      quoteStoreOf(queryClient).apply([
        { name: 'EUR_USD', bids: 1.0812, asks: 1.08135, closeoutBid: 1.0812, closeoutAsk: 1.08135, time: Date.now() },
      ]),
    );
    expect(within(card).getByTestId('current-101').textContent).toBe('1.08135');
    fireEvent.click(within(card).getByRole('button', { name: 'Close' }));
    expect(props.onClosePosition).toHaveBeenCalledWith(open);
    fireEvent.click(within(card).getByRole('button', { name: 'Set Stop/Loss' }));
    expect(props.onProtect).toHaveBeenCalledWith(open, 'loss');

    const done = screen.getByTestId('position-102');
    expect(within(done).getByTestId('pl-102').textContent).toBe('$48.00000');
    expect(done.textContent).toContain('1.08500');
    expect(done.textContent).toContain('Stop loss');
    expect(within(done).queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it("keeps the table on wider screens, with each position's swap and commission so far", async () => {
    phone(false);
    show();
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.queryByTestId('position-cards')).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Swap' })).toBeTruthy();
    expect(screen.getByTestId('swap-101').textContent).toBe('-$1.65');
    expect(screen.getByTestId('swap-102').textContent).toBe('$0.00');
    // All Positions keeps its commission in the column chooser (two columns wider than Opened Positions).
    expect(screen.queryByRole('columnheader', { name: 'Commission' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Commission' }));
    expect(await screen.findByRole('columnheader', { name: 'Commission' })).toBeTruthy();
    expect(screen.getByTestId('commission-101').textContent).toBe('$0.00');
    expect(screen.getByTestId('commission-102').textContent).toBe('-$1.40');
    // Remembered for the next visit.
    expect(localStorage.getItem('table-columns:terminal:user-7:positions-all')).toBe('{"commission":true}');
  });

  it('shows the commission of open positions by default, and their status chip only when chosen', async () => {
    phone(false);
    localStorage.clear();
    show({ rows: [orderFixture({ id: 103, commission: '-0.7' })], variant: 'open' });
    expect(await screen.findByRole('columnheader', { name: 'Commission' })).toBeTruthy();
    expect(screen.getByTestId('commission-103').textContent).toBe('-$0.70');
    expect(screen.queryByRole('columnheader', { name: 'Status' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Columns' })).toBeTruthy();
  });

  it("shows a card's ticket, swap and commission", async () => {
    phone(true);
    show();
    const open = await screen.findByTestId('position-101');
    expect(within(open).getByTestId('ticket-101').textContent).toBe('#101');
    expect(open.textContent).toContain('Swap -$1.65');
    expect(open.textContent).toContain('Commission $0.00');
    const closed = screen.getByTestId('position-102');
    expect(closed.textContent).toContain('Commission -$1.40');
    expect(closed.textContent).toContain('Swap $0.00');
  });
});
