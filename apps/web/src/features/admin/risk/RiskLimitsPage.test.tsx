import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { RiskLimitsPage } from './RiskLimitsPage.tsx';

afterEach(cleanup);

describe('RiskLimitsPage', () => {
  it('shows the limits and saves the edited set', async () => {
    const { calls } = mockFetch((c) => {
      if (c.path === '/admin/risk/limits' && c.method === 'GET')
        return {
          data: [
            { instrument: 'EUR_USD', category: null, maxNetVolume: 150000, maxPositionVolume: 40000, warnPercent: 90 },
          ],
        };
      if (c.path === '/admin/risk/limits' && c.method === 'PUT') return { data: [], message: 'Limits saved' };
      if (c.path.startsWith('/admin/instruments/api/'))
        return {
          data: c.path.endsWith('/forex') ? [{ name: 'EUR_USD' }] : [],
          meta: { total: 1, per_page: 100, page: 1 },
        };
      return { status: 404, body: { message: 'Not found' } };
    });
    renderWithProviders(<RiskLimitsPage />, { route: '/admin/risk/limits' });
    const table = await screen.findByRole('table', { name: 'Risk Limits' });
    const net = await within(table).findByRole('textbox', { name: 'MAX NET VOLUME' });
    expect((net as HTMLInputElement).value).toBe('150,000');
    fireEvent.change(net, { target: { value: '120000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      limits: [{ instrument: 'EUR_USD', maxNetVolume: 120000, maxPositionVolume: 40000, warnPercent: 90 }],
    });
  });
});
