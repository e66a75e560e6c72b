import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MarketStatus } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, emitRealtime, instrumentsFixture, marketOpen, mockTradingFetch, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { InstrumentPanel } = await import('./InstrumentPanel.tsx');
const { useLivePrices } = await import('./quotes.ts');

function Panel({ status = marketOpen, onTrade = vi.fn() }: { status?: MarketStatus; onTrade?: () => void }) {
  useLivePrices();
  return (
    <InstrumentPanel
      instruments={instrumentsFixture()}
      marketStatus={status}
      selected="USD_CNH"
      onSelect={vi.fn()}
      onTrade={onTrade}
    />
  );
}

const row = (name: string) => screen.getByTestId(`instrument-${name}`);

describe('InstrumentPanel', () => {
  it('lists a market tab with Sell (bid) and Buy (ask) prices and colours the last move', async () => {
    mockTradingFetch(tradingApi());
    const onTrade = vi.fn();
    renderScreen(<Panel onTrade={onTrade} />);
    const eur = within(await waitFor(() => row('EUR_USD')));
    await waitFor(() => expect(eur.getByRole('button', { name: 'Sell EUR/USD' }).textContent).toBe('1.08510'));
    expect(eur.getByRole('button', { name: 'Buy EUR/USD' }).textContent).toBe('1.08530');

    emitRealtime('priceUpdate', [
      { name: 'EUR_USD', bids: 1.0849, asks: 1.0855, closeoutBid: 1.0849, closeoutAsk: 1.0855, time: 1 },
    ]);
    const sell = eur.getByRole('button', { name: 'Sell EUR/USD' });
    const buy = eur.getByRole('button', { name: 'Buy EUR/USD' });
    await waitFor(() => expect(sell.textContent).toBe('1.08490'));
    expect(buy.textContent).toBe('1.08550');
    expect(sell.getAttribute('style') ?? '').toContain('red');
    expect(buy.getAttribute('style') ?? '').toContain('teal');

    fireEvent.click(buy);
    expect(onTrade).toHaveBeenCalledWith('buy', expect.objectContaining({ name: 'EUR_USD' }));
  });

  it('searches fuzzily across every market', async () => {
    mockTradingFetch(tradingApi());
    renderScreen(<Panel />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search instruments' }), { target: { value: 'eur' } });
    await waitFor(() => expect(row('EUR_GBP')).toBeTruthy());
    expect(row('EUR_USD')).toBeTruthy();
    expect(row('EUR_JPY')).toBeTruthy();
    expect(screen.queryByTestId('instrument-BTC_USD')).toBeNull();
    expect(screen.queryByTestId('instrument-USD_CNH')).toBeNull();
  });

  it('covers forex, commodities and indices with "Market Closed" when fx is closed', async () => {
    mockTradingFetch(tradingApi());
    renderScreen(<Panel status={{ fx: 'closed', stock: 'open', crypto: 'open' }} />);
    expect(within(screen.getByTestId('market-forex')).getByText('Market Closed')).toBeTruthy();
    expect(within(row('EUR_USD')).getByRole('button', { name: 'Buy EUR/USD' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('tab', { name: 'COMMODITIES' }));
    expect(within(await screen.findByTestId('market-commodity')).getByText('Market Closed')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'INDICES' }));
    expect(within(await screen.findByTestId('market-index')).getByText('Market Closed')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'STOCK' }));
    const stock = await screen.findByTestId('market-stock');
    expect(within(stock).queryByText('Market Closed')).toBeNull();
    expect(within(row('AAPL_USD')).getByRole('button', { name: 'Buy AAPL/USD' })).toHaveProperty('disabled', false);
  });

  it("says when a closed market opens again, in the user's local time", async () => {
    mockTradingFetch(tradingApi());
    const opens = '2026-11-22T22:00:00.000Z';
    renderScreen(
      <Panel status={{ fx: 'closed', stock: 'open', crypto: 'open', nextOpen: { fx: opens, stock: null } }} />,
    );
    const local = new Date(opens);
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    expect(within(screen.getByTestId('market-forex')).getByTestId('market-reopens').textContent).toContain(hhmm);
  });

  it('disables Sell and Buy of an instrument that is not tradable', async () => {
    const instruments = instrumentsFixture().map((i) => (i.name === 'EUR_USD' ? { ...i, tradable: false } : i));
    mockTradingFetch(tradingApi({ instruments }));
    renderScreen(
      <InstrumentPanel
        instruments={instruments}
        marketStatus={marketOpen}
        selected={null}
        onSelect={vi.fn()}
        onTrade={vi.fn()}
      />,
    );
    expect(within(row('EUR_USD')).getByRole('button', { name: 'Sell EUR/USD' })).toHaveProperty('disabled', true);
  });

  it('stars a favourite and lists it under Favorite Pairs', async () => {
    let favorites: Array<{ id: number; list_id: number; name: string }> = [];
    const fetchMock = mockTradingFetch(
      tradingApi({
        extra: (method, path, body) => {
          if (path === '/dashboard/get-favorite') return { body: favorites };
          if (method === 'POST' && path === '/dashboard/add-to-favorite') {
            favorites = [{ id: 1, list_id: (body as { id: number }).id, name: 'BTC_USD' }];
            return { body: { message: 'ok' } };
          }
          return undefined;
        },
      }),
    );
    renderScreen(<Panel />);
    expect(await screen.findByText('Star an instrument to keep it here.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'CRYPTO' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add BTC/USD to favorites' }));
    expect(await screen.findByText('Added to favorites')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/add-to-favorite')[0]?.body).toEqual({ id: 9 });
    await waitFor(() => expect(screen.getAllByTestId('instrument-BTC_USD')).toHaveLength(2));
    expect(screen.queryByText('Star an instrument to keep it here.')).toBeNull();
  });
});
