import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { customerDetail } from './testing.ts';
import { EditCustomerPage } from './EditCustomerPage.tsx';

vi.mock('../../../api/realtime.ts', async () => (await import('./testing.ts')).customerRealtimeModule);
vi.mock('./navigation.ts', () => ({ goTo: vi.fn(), reloadPage: vi.fn() }));

const EMPTY = { data: [], meta: { total: 0, per_page: 15, page: 1 } };

function renderAs(viewerRole: number) {
  const api = mockFetch((c) => {
    if (c.path === '/auth/user') return currentUser(viewerRole, 99);
    if (c.path === '/admin/share/users/7') return customerDetail();
    if (c.method === 'DELETE' && c.path === '/admin/users/7/two-factor')
      return { message: 'Two-factor sign-in was reset for carl@example.test' };
    return EMPTY;
  });
  renderWithProviders(
    <Routes>
      <Route path="/admin/customers/edit/:id" element={<EditCustomerPage />} />
    </Routes>,
    { route: '/admin/customers/edit/7' },
  );
  return api;
}

describe("Customer's Security tab: two-factor reset", () => {
  it('lets an admin reset a customer who lost their phone, after a confirmation', async () => {
    const { calls } = renderAs(1);
    fireEvent.click(await screen.findByRole('tab', { name: 'Security' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reset two-factor' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Two-factor sign-in was reset for carl@example.test')).toBeTruthy();
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/admin/users/7/two-factor')).toBe(true),
    );
  });

  it('is not offered to a manager', async () => {
    renderAs(2);
    fireEvent.click(await screen.findByRole('tab', { name: 'Security' }));
    await screen.findByText('Active sessions');
    expect(screen.queryByRole('button', { name: 'Reset two-factor' })).toBeNull();
  });
});
