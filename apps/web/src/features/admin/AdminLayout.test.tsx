import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, renderWithProviders, type FetchCall } from '../../ui/data-table/testing.tsx';
import { AdminRoutes } from './routes.tsx';
import { BRANDING, currentUser } from './fixtures.ts';

// The shell's notification bell listens on the socket; component tests have no server to connect to.
vi.mock('../../api/realtime.ts', () => ({
  useRealtimeEvent: () => undefined,
  disconnectRealtime: () => undefined,
  reconnectRealtime: () => undefined,
}));

afterEach(cleanup);

function serve(roleId: number | null) {
  return mockFetch((c: FetchCall) => {
    if (c.path === '/auth/user')
      return roleId === null ? { status: 401, body: { message: 'Please sign in to continue.' } } : currentUser(roleId);
    if (c.path === '/settings/branding') return BRANDING;
    if (c.path === '/notifications') return { data: [], unread: 0 };
    return { data: [], meta: { total: 0, per_page: 15, page: 1 } };
  });
}

function App() {
  return (
    <Routes>
      <Route path="/" element={<p>Sign in page</p>} />
      <Route path="/dashboard" element={<p>Client dashboard</p>} />
      <Route path="/admin/*" element={<AdminRoutes />} />
      <Route path="/affiliate/*" element={<AdminRoutes />} />
    </Routes>
  );
}

describe('Admin shell', () => {
  it('shows the loader, then the page title, menu and the screen', async () => {
    serve(1);
    renderWithProviders(<App />, { route: '/admin/crm-config/teams' });
    expect(screen.getByTestId('loading-screen')).toBeTruthy();
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', 'Teams');
    expect(await screen.findByRole('columnheader', { name: 'MANAGER' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Admin & Staffs' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Acme Markets - Admin'));
  });

  it('titles typed screens from their path', async () => {
    serve(1);
    renderWithProviders(<App />, { route: '/admin/trades/open' });
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', 'Open Trades');
  });

  it('tells a staff role when its menu does not include the screen', async () => {
    serve(2);
    renderWithProviders(<App />, { route: '/admin/users' });
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Admin & Staffs' })).toBeNull();
  });

  it('opens the affiliate screens for an affiliate', async () => {
    serve(4);
    renderWithProviders(<App />, { route: '/affiliate/api' });
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', 'API Key');
  });

  it('opens the customer edit page for staff', async () => {
    serve(5);
    renderWithProviders(<App />, { route: '/admin/customers/edit/12' });
    expect(await screen.findByTestId('page-title')).toHaveProperty('textContent', 'Edit Customer');
  });

  it('sends a customer to the client dashboard', async () => {
    serve(3);
    renderWithProviders(<App />, { route: '/admin' });
    expect(await screen.findByText('Client dashboard')).toBeTruthy();
  });

  it('sends a signed-out visitor to the sign-in page', async () => {
    serve(null);
    renderWithProviders(<App />, { route: '/admin/users' });
    expect(await screen.findByText('Sign in page')).toBeTruthy();
  });
});
