import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { RoleShortcuts } from './RoleShortcuts.tsx';

const cases: Array<[number, string, string]> = [
  [1, 'Admin', '/admin'],
  [2, 'Manager', '/admin/trades/all'],
  [4, 'Affiliate', '/affiliate'],
  [5, 'Agent', '/admin/crm/sales/all'],
  [6, 'Agent', '/admin/crm/retention'],
];

describe('RoleShortcuts', () => {
  it.each(cases)('role %i gets "%s" to %s', (roleId, label, to) => {
    renderScreen(<RoleShortcuts roleId={roleId} />);
    const link = screen.getByRole('link', { name: label });
    expect(link.getAttribute('href')).toBe(to);
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.queryByText('Back To Admin')).toBeNull();
  });

  it('gives a client no shortcut', () => {
    renderScreen(<RoleShortcuts roleId={3} />);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('offers Back To Admin while backToAdmin is enabled, and leaves cleanly', async () => {
    localStorage.setItem('backToAdmin', 'enabled');
    localStorage.setItem('retAgent', '1');
    const fetchMock = mockApi((method, path) =>
      method === 'POST' && path === '/authManager/back-to-admin' ? { body: { message: 'Welcome back' } } : undefined,
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderScreen(<RoleShortcuts roleId={3} />);
    fireEvent.click(screen.getByRole('button', { name: 'Back To Admin' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin'));
    expect(localStorage.getItem('backToAdmin')).toBeNull();
    expect(localStorage.getItem('retAgent')).toBeNull();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/authManager/back-to-admin') && init?.method === 'POST',
      ),
    ).toBe(true);
  });

  it('reports a failed return to the admin session', async () => {
    localStorage.setItem('backToAdmin', 'enabled');
    mockApi(() => ({ status: 409, body: { message: 'There is no admin session to return to.' } }));
    renderScreen(<RoleShortcuts roleId={3} />);
    fireEvent.click(screen.getByRole('button', { name: 'Back To Admin' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
