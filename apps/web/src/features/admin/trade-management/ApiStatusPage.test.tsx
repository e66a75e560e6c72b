import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { emitRealtime } from '../../trading/testing.ts';

vi.mock('../../../api/realtime.ts', async () => (await import('../../trading/testing.ts')).realtimeModule);

const { ApiStatusPage } = await import('./ApiStatusPage.tsx');

afterEach(cleanup);

const row = (api: string) => screen.getByTestId(`api-status-${api}`);

describe('ApiStatusPage', () => {
  it('starts every provider at N/A / Checking and shows the currency quota as used/total', async () => {
    mockFetch(() => ({
      heartbeats: [],
      currency: { used: 73, total: 300 },
      configured: ['polygonForex', 'polygonCrypto', 'eodStock', 'oandaRest'],
      simulated: { categories: [], instruments: 0, lastTickAt: null },
    }));
    renderWithProviders(<ApiStatusPage />);
    expect(await screen.findByText('73/300')).toBeTruthy();
    for (const [api, label] of [
      ['polygonForex', 'Polygon (Forex)'],
      ['polygonCrypto', 'Polygon (Crypto)'],
      ['eodStock', 'EOD Historical Data (Stock)'],
      ['oandaRest', 'Oanda Rest (Others)'],
    ]) {
      expect(within(row(api)).getByText(label)).toBeTruthy();
      expect(within(row(api)).getByText('N/A')).toBeTruthy();
      expect(within(row(api)).getByText('Checking...')).toBeTruthy();
    }
    expect(within(row('currency')).getByText('Currency API')).toBeTruthy();
    expect(within(row('currency')).getByText('Remaining Quota')).toBeTruthy();
  });

  it('shows the last stored heartbeats, then live ones as they arrive', async () => {
    mockFetch(() => ({
      heartbeats: [
        { api: 'polygonForex', success: true, msg: 'Connected: 13 instruments' },
        { api: 'eodStock', success: false, msg: 'Not configured: its prices are simulated' },
      ],
      currency: { used: 0, total: 0 },
      configured: ['polygonForex', 'polygonCrypto', 'eodStock', 'oandaRest'],
      simulated: { categories: [], instruments: 0, lastTickAt: null },
    }));
    renderWithProviders(<ApiStatusPage />);
    expect(await within(row('polygonForex')).findByText('Connected')).toBeTruthy();
    expect(within(row('polygonForex')).getByText('Connected: 13 instruments')).toBeTruthy();
    expect(within(row('eodStock')).getByText('Disconnected')).toBeTruthy();
    expect(within(row('eodStock')).getByText('Not configured: its prices are simulated')).toBeTruthy();

    emitRealtime('heartbeat', { api: 'polygonForex', success: false, msg: 'authentication failed' });
    emitRealtime('heartbeat', { api: 'oandaRest', success: true, msg: 'Streaming 24 instruments' });
    expect(await within(row('polygonForex')).findByText('Disconnected')).toBeTruthy();
    expect(within(row('polygonForex')).getByText('authentication failed')).toBeTruthy();
    expect(within(row('oandaRest')).getByText('Connected')).toBeTruthy();
    expect(within(row('oandaRest')).getByText('Streaming 24 instruments')).toBeTruthy();
    // Other rows are untouched.
    expect(within(row('polygonCrypto')).getByText('N/A')).toBeTruthy();
  });

  it('says which markets run on the simulated feed, with its own heartbeat, when no provider has a key', async () => {
    mockFetch(() => ({
      heartbeats: [],
      currency: { used: 0, total: 0 },
      configured: [],
      simulated: {
        categories: ['forex', 'commodity', 'index', 'stock', 'crypto'],
        instruments: 60,
        lastTickAt: '2026-11-23T10:15:30Z',
      },
    }));
    renderWithProviders(<ApiStatusPage />);
    expect(await within(row('polygonForex')).findByText('Simulated feed (no provider key)')).toBeTruthy();
    expect(within(row('polygonForex')).getByText('Not configured')).toBeTruthy();
    expect(screen.queryByText('Checking...')).toBeNull();
    expect(within(row('simulated')).getByText('Running')).toBeTruthy();
    expect(
      within(row('simulated')).getByText(/Forex, Commodities, Indices, Stocks, Crypto: 60 instruments · last tick/),
    ).toBeTruthy();
  });
});
