import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/render.tsx';
import { instrumentsFixture, marketOpen, mockTradingFetch, tradingApi, type TradingApiOptions } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
// The canvas chart has no place in a DOM without layout; the symbol it shows is what matters here.
vi.mock('./PriceChart.tsx', () => ({
  PriceChart: ({ symbol }: { symbol: string }) => <div data-testid="price-chart">{symbol}</div>,
}));
const { DashboardPage } = await import('./DashboardPage.tsx');

async function show(options: TradingApiOptions = {}) {
  mockTradingFetch(tradingApi(options));
  renderScreen(<DashboardPage />);
  await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('USD_CNH'));
}

/** A key pressed with nothing focused: it reaches the page as the terminal's listener sees it. */
const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });

const dialogTitle = () => screen.queryByRole('dialog')?.textContent ?? '';

describe('terminal keyboard', () => {
  it('F9 opens a new order for the instrument on the chart, and Esc closes it', async () => {
    await show();
    press('F9');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Buy Order');
    expect(dialog.textContent).toContain('USD/CNH');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('B and S open the order dialog on buy and on sell; a key pressed while it is open does nothing', async () => {
    await show();
    press('s');
    await waitFor(() => expect(dialogTitle()).toContain('Sell Order'));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'b' });
    expect(dialogTitle()).toContain('Sell Order');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    press('b');
    await waitFor(() => expect(dialogTitle()).toContain('Buy Order'));
  });

  it('does nothing while typing in a field, or with Ctrl, Meta or Alt', async () => {
    await show();
    const search = screen.getByRole('textbox', { name: 'Search instruments' });
    search.focus();
    fireEvent.keyDown(search, { key: 'b' });
    fireEvent.keyDown(search, { key: 'F9' });
    fireEvent.keyDown(search, { key: '?', shiftKey: true });
    press('b', { ctrlKey: true });
    press('s', { metaKey: true });
    press('F9', { altKey: true });
    // Give a lazily loaded dialog the time to show, had one been asked for.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Up and Down move the selection through the market tab shown, and the chart follows', async () => {
    await show();
    press('ArrowDown');
    await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('EUR_USD'));
    press('ArrowDown');
    await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('EUR_GBP'));
    press('ArrowUp');
    press('ArrowUp');
    press('ArrowUp');
    // The first instrument of the list stays selected at its top.
    await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('USD_CNH'));
    // Through the search results while searching (typing the arrows in the box moves nothing).
    const search = screen.getByRole('textbox', { name: 'Search instruments' });
    fireEvent.change(search, { target: { value: 'bitcoin' } });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(screen.getByTestId('price-chart').textContent).toBe('USD_CNH');
    search.blur();
    press('ArrowDown');
    await waitFor(() => expect(screen.getByTestId('price-chart').textContent).toBe('BTC_USD'));
  });

  it('"?" opens the list of shortcuts', async () => {
    await show();
    press('?', { shiftKey: true });
    const overlay = await screen.findByTestId('shortcuts');
    for (const text of ['F9', 'New order for the selected instrument', 'Esc', 'Select the previous or next instrument'])
      expect(overlay.textContent).toContain(text);
    expect(screen.getByText('Keyboard shortcuts')).toBeTruthy();
  });

  it('says so instead of opening a dialog when the instrument cannot be traded', async () => {
    const instruments = instrumentsFixture().map((i) => (i.name === 'USD_CNH' ? { ...i, tradable: false } : i));
    await show({ instruments, marketStatus: marketOpen });
    press('b');
    expect(await screen.findByText('USD/CNH cannot be traded right now')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
