import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { AdminRoutes } from '../routes.tsx';
import { BRANDING, currentUser } from '../fixtures.ts';

// The shell's notification bell listens on the socket; component tests have no server to connect to.
vi.mock('../../../api/realtime.ts', () => ({
  useRealtimeEvent: () => undefined,
  disconnectRealtime: () => undefined,
  reconnectRealtime: () => undefined,
}));

afterEach(cleanup);

function serve(roleId: number) {
  return mockFetch((c: FetchCall) => {
    if (c.path === '/auth/user') return currentUser(roleId);
    if (c.path === '/settings/branding') return BRANDING;
    if (c.path === '/notifications') return { data: [], unread: 0 };
    if (c.path === '/admin/gateways') return { data: [] };
    if (c.path === '/admin/withdraws/settings') return { feePercentage: '0.0000', feeFixed: '0.00' };
    return { data: [], meta: { total: 0, per_page: 15, page: 1 } };
  });
}

const render = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/*" element={<AdminRoutes />} />
    </Routes>,
    { route },
  );

const SCREENS: Array<[route: string, title: string, request: string]> = [
  ['/admin/deposits', 'Deposits', '/admin/deposits/api/history'],
  ['/admin/withdraws/pending', 'Pending Withdraws', '/admin/withdraws/api/pending'],
  ['/admin/withdraws/history', 'Withdraw History', '/admin/withdraws/api/history'],
  ['/admin/withdraws/settings', 'Withdraw Settings', '/admin/withdraws/settings'],
  ['/admin/gateways', 'Automatic Gateways', '/admin/gateways'],
  ['/admin/gateways/manual', 'Manual Gateways', '/admin/gateways'],
  ['/admin/externalPayments', 'External Payments', '/admin/externalPayments/api'],
  ['/admin/kyc', 'KYC', '/admin/kyc/api'],
  ['/admin/pricing', 'Pricing Plan', '/dashboard/pricing'],
];

describe('money screen routes', () => {
  it.each(SCREENS)('%s opens its screen titled %s', async (route, title, request) => {
    const { calls } = serve(1);
    render(route);
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', title);
    await waitFor(() => expect(calls.some((c) => c.method === 'GET' && c.path === request)).toBe(true));
    expect(screen.queryByText('This section is not part of this release yet.')).toBeNull();
  });

  it('lets a manager review deposits but not configure gateways', async () => {
    serve(2);
    render('/admin/deposits');
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', 'Deposits');
    cleanup();
    const { calls } = serve(2);
    render('/admin/gateways');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/admin/gateways')).toBe(false);
  });
});
