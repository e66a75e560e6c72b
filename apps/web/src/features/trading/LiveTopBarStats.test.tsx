import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { PricingTableDto } from '@platform/domain';
import { currentUserFixture } from '../../test/fixtures.ts';
import { renderScreen } from '../../test/render.tsx';
import { emitRealtime, mockTradingFetch, orderFixture, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { LiveTopBarStats } = await import('./LiveTopBarStats.tsx');

const stat = (label: string) => within(screen.getByTestId('top-bar-stats')).getByText(label).nextSibling?.textContent;

describe('LiveTopBarStats', () => {
  it('moves P/L, equity, free margin and margin level with the live prices', async () => {
    mockTradingFetch(tradingApi({ openOrders: [orderFixture({ margin_used: '108.00' })] }));
    renderScreen(<LiveTopBarStats balance="10000" margin="108" currency="USD" />);
    // Buy 10000 EUR/USD from 1.08000, bid 1.08510, spread cost 2: +49
    await waitFor(() => expect(stat('Profit/Loss')).toBe('$49.000'));
    expect(stat('Equity')).toBe('$10,049.000');
    expect(stat('Used Margin')).toBe('$108.00');
    expect(stat('Free Margin')).toBe('$9,941.00');
    expect(stat('Margin Level')).toBe('9304.63%');

    emitRealtime('priceUpdate', [
      { name: 'EUR_USD', bids: 1.0751, asks: 1.0753, closeoutBid: 1.0751, closeoutAsk: 1.0753, time: 9 },
    ]);
    // (1.0751 − 1.08) × 10000 − 2 = −51
    await waitFor(() => expect(stat('Profit/Loss')).toBe('-$51.000'));
    expect(stat('Equity')).toBe('$9,949.000');
    expect(stat('Margin Level')).toBe('9212.04%');
  });

  it('shows "-" as margin level without open positions', async () => {
    mockTradingFetch(tradingApi());
    renderScreen(<LiveTopBarStats balance="10000" margin="0" currency="USD" />);
    await waitFor(() => expect(stat('Margin Level')).toBe('-'));
    expect(stat('Profit/Loss')).toBe('$0.000');
  });

  it('converts the P/L of a position quoted in another currency with its current rate', async () => {
    const order = orderFixture({
      instrument: 'USD_JPY',
      base_symbol: 'USD',
      quote_symbol: 'JPY',
      type: 'sell',
      open_rate: '151.500',
      spread: '120',
      exchange_rate: '150',
    });
    mockTradingFetch(tradingApi({ openOrders: [order], rate: '151.2' }));
    renderScreen(<LiveTopBarStats balance="10000" margin="100" currency="USD" />);
    // (151.500 − 151.221) × 10000 − 120 = 2670 JPY ÷ 151.2
    await waitFor(() => expect(stat('Profit/Loss')).toBe('$17.659'));
  });

  describe('margin call', () => {
    const plan = { id: 1, name: 'Raw', forex_stopout: 50, margin_call_level: 100 } as PricingTableDto;
    const user = () => {
      const u = currentUserFixture();
      return { ...u, user: { ...u.user, pricingTable: plan } };
    };
    const state = () =>
      within(screen.getByTestId('top-bar-stats')).getByText('Margin Level').parentElement?.dataset.state;

    it("turns the margin level to warning at the plan's margin-call level and to danger at its stop-out", async () => {
      mockTradingFetch(tradingApi({ user: user(), openOrders: [orderFixture({ margin_used: '108.00' })] }));
      renderScreen(<LiveTopBarStats balance="150" margin="108" currency="USD" />);
      // Equity 150 + 49 = 199: 184.26%
      await waitFor(() => expect(stat('Margin Level')).toBe('184.26%'));
      expect(state()).toBe('ok');
      emitRealtime('priceUpdate', [
        { name: 'EUR_USD', bids: 1.0751, asks: 1.0753, closeoutBid: 1.0751, closeoutAsk: 1.0753, time: 9 },
      ]);
      // Equity 150 − 51 = 99: 91.67%, under the call at 100%
      await waitFor(() => expect(stat('Margin Level')).toBe('91.67%'));
      expect(state()).toBe('warning');
      emitRealtime('priceUpdate', [
        { name: 'EUR_USD', bids: 1.0705, asks: 1.0707, closeoutBid: 1.0705, closeoutAsk: 1.0707, time: 10 },
      ]);
      // Equity 150 − 97 = 53: 49.07%, under the stop-out at 50%
      await waitFor(() => expect(stat('Margin Level')).toBe('49.07%'));
      expect(state()).toBe('danger');
    });

    it("warns while the server's margin call of the active wallet is on, and stops when it re-arms", async () => {
      mockTradingFetch(tradingApi({ user: user(), openOrders: [orderFixture({ margin_used: '108.00' })] }));
      renderScreen(<LiveTopBarStats balance="10000" margin="108" currency="USD" />);
      await waitFor(() => expect(stat('Margin Level')).toBe('9304.63%'));
      // Another wallet's call is not this one's.
      emitRealtime('marginCall', { balanceId: 12, marginLevel: 95, called: true });
      expect(state()).toBe('ok');
      emitRealtime('marginCall', { balanceId: 11, marginLevel: 99.5, called: true });
      await waitFor(() => expect(state()).toBe('warning'));
      emitRealtime('marginCall', { balanceId: 11, called: false });
      await waitFor(() => expect(state()).toBe('ok'));
    });

    it('warns after a reload while the wallet is in margin call, until the call re-arms', async () => {
      const u = user();
      const called = { ...u, activeBalance: u.activeBalance && { ...u.activeBalance, margin_call: true } };
      mockTradingFetch(tradingApi({ user: called, openOrders: [orderFixture({ margin_used: '108.00' })] }));
      renderScreen(<LiveTopBarStats balance="10000" margin="108" currency="USD" />);
      await waitFor(() => expect(stat('Margin Level')).toBe('9304.63%'));
      await waitFor(() => expect(state()).toBe('warning'));
      emitRealtime('marginCall', { balanceId: 11, called: false });
      await waitFor(() => expect(state()).toBe('ok'));
    });
  });
});
