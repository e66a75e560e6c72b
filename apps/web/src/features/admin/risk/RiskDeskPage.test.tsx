import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ExposureResponse, ExposureRow } from '@platform/domain';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { rowRenders } from './ExposureTable.tsx';
import { RiskDeskPage } from './RiskDeskPage.tsx';

afterEach(cleanup);

const row = (over: Partial<ExposureRow>): ExposureRow => ({
  instrument: 'GBP_USD',
  category: 'forex',
  long_volume: 10000,
  short_volume: 4000,
  net_volume: 6000,
  long_avg_price: 1.25,
  short_avg_price: 1.2502,
  client_floating_pl: -12.5,
  positions: 3,
  net_history: [0, 2000, 6000],
  max_net_volume: null,
  ...over,
});

const user = { user: { id: 1, role_id: 1 } };

describe('RiskDeskPage', () => {
  it('refreshes every second and renders again only the rows whose figures changed', async () => {
    let reads = 0;
    const { calls } = mockFetch((c) => {
      if (c.path === '/auth/user') return user;
      if (c.path === '/admin/risk/exposure') {
        reads++;
        const body: ExposureResponse = {
          data: [
            row({}),
            row({
              instrument: 'EUR_USD',
              long_volume: 100000 + reads * 1000,
              net_volume: 100000 + reads * 1000,
              short_volume: 0,
              short_avg_price: null,
              client_floating_pl: 50 + reads,
              max_net_volume: 200000,
            }),
          ],
          totals: { client_floating_pl: 37.5 + reads, positions: 4 },
          currency: 'USD',
          at: Date.now(),
        };
        return body;
      }
      if (c.path === '/admin/risk/realised')
        return {
          currency: 'USD',
          today: { house_pl: 120.5, trade_pl: -100, spread: -20.5, commission: 0, swap: 0 },
          period: {
            house_pl: 900,
            trade_pl: -800,
            spread: -100,
            commission: 0,
            swap: 0,
            from: '2026-10-28',
            to: '2026-11-26',
          },
        };
      if (c.path === '/admin/risk/top-clients')
        return {
          currency: 'USD',
          data: [
            {
              user_id: 7,
              name: 'Cara Client',
              email: 'cara@demo.test',
              floating_pl: 80,
              volume: 110000,
              exposure: 110000,
              positions: 2,
            },
          ],
        };
      return { status: 404, body: { message: 'Not found' } };
    });
    rowRenders.clear();
    renderWithProviders(<RiskDeskPage />, { route: '/admin/risk' });

    const table = await screen.findByRole('table', { name: 'Exposure by instrument' });
    await within(table).findByText('EUR/USD');
    // Largest net first.
    const first = within(table).getAllByRole('row')[1];
    expect(first.getAttribute('data-instrument')).toBe('EUR_USD');
    expect(await screen.findByText('$120.50')).toBeTruthy();
    expect(await screen.findByText('Cara Client')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Risk Limits' })).toBeTruthy();

    const gbpBefore = rowRenders.get('GBP_USD') ?? 0;
    const eurBefore = rowRenders.get('EUR_USD') ?? 0;
    const readsBefore = reads;
    await waitFor(() => expect(reads).toBeGreaterThanOrEqual(readsBefore + 2), { timeout: 4000 });
    await waitFor(() => {
      const net = table.querySelector('tr[data-instrument="EUR_USD"] [data-field="net_volume"]')?.textContent;
      expect(net).toBe((100000 + reads * 1000).toLocaleString('en-US'));
    });
    expect(rowRenders.get('EUR_USD') ?? 0).toBeGreaterThan(eurBefore);
    // The unchanged row kept its object, so it was not rendered again.
    expect(rowRenders.get('GBP_USD')).toBe(gbpBefore);

    // Sorting by a header, and the wallet mode reaching the server.
    fireEvent.click(within(table).getByRole('button', { name: /INSTRUMENT/ }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1].getAttribute('data-instrument')).toBe('GBP_USD'));
    expect(calls.find((c) => c.path === '/admin/risk/exposure')?.query.get('mode')).toBe('real');
    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/admin/risk/exposure' && c.query.get('mode') === 'all')).toBe(true),
    );
  });

  it("gives a manager the desk without the limits' link", async () => {
    mockFetch((c) => {
      if (c.path === '/auth/user') return { user: { id: 2, role_id: 2 } };
      if (c.path === '/admin/risk/exposure')
        return { data: [row({})], totals: { client_floating_pl: -12.5, positions: 3 }, currency: 'USD', at: 1 };
      if (c.path === '/admin/risk/top-clients') return { currency: 'USD', data: [] };
      return { status: 404, body: { message: 'Not found' } };
    });
    renderWithProviders(<RiskDeskPage />, { route: '/admin/risk' });
    const table = await screen.findByRole('table', { name: 'Exposure by instrument' });
    await within(table).findByText('GBP/USD');
    // The house's floating P/L is the clients' opposite.
    expect(await screen.findByText('$12.50', { selector: '[data-figure]' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Risk Limits' })).toBeNull();
  });
});
