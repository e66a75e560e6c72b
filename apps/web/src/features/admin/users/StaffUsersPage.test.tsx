import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { staffUser } from '../fixtures.ts';
import { StaffUsersPage } from './StaffUsersPage.tsx';

afterEach(cleanup);

const LIST = {
  data: [
    staffUser({ id: 1, full_name: 'Ada Admin', email: 'ada@demo.test', role_id: 1, online: true }),
    staffUser({
      id: 6,
      full_name: 'Rita Retention',
      email: 'rita@demo.test',
      role_id: 6,
      is_email_verified: false,
      is_active: false,
    }),
  ],
  meta: { total: 2, per_page: 15, page: 1 },
};

describe('StaffUsersPage', () => {
  it('lists staff with role names, Yes/No, status chips and online dots', async () => {
    mockFetch(() => LIST);
    renderWithProviders(<StaffUsersPage />);
    const ada = (await screen.findByText('Ada Admin')).closest('tr') as HTMLElement;
    const rita = screen.getByText('Rita Retention').closest('tr') as HTMLElement;
    expect(within(ada).getByText('Admin')).toBeTruthy();
    expect(within(ada).getByText('Yes')).toBeTruthy();
    expect(within(ada).getByText('Active')).toBeTruthy();
    expect(within(ada).getByLabelText('Online')).toBeTruthy();
    expect(within(rita).getByText('Retention Agent')).toBeTruthy();
    expect(within(rita).getByText('No')).toBeTruthy();
    expect(within(rita).getByText('Inactive')).toBeTruthy();
    expect(within(rita).getByLabelText('Offline')).toBeTruthy();
    for (const h of ['ID', 'FULL NAME', 'EMAIL', 'ROLE', 'EMAIL VERIFIED', 'STATUS', 'ACTIONS'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
  });

  it('deletes after the confirmation and reloads the list', async () => {
    const { calls } = mockFetch((c) => (c.method === 'DELETE' ? { message: 'deleted' } : LIST));
    renderWithProviders(<StaffUsersPage />);
    const rita = (await screen.findByText('Rita Retention')).closest('tr') as HTMLElement;
    fireEvent.click(within(rita).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this user?')).toBeTruthy();
    // happy-dom has no layout, so the popover's hide-when-detached check may hide it: query hidden nodes too.
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('User deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/users/6');
    await waitFor(() => expect(calls.filter((c) => c.path === '/admin/users/api').length).toBeGreaterThan(1));
  });

  it('shows the generic text when a delete fails', async () => {
    mockFetch((c) =>
      c.method === 'DELETE' ? { status: 409, body: { message: 'You cannot delete your own account.' } } : LIST,
    );
    renderWithProviders(<StaffUsersPage />);
    const ada = (await screen.findByText('Ada Admin')).closest('tr') as HTMLElement;
    fireEvent.click(within(ada).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });

  it('opens the add form in a modal with Admin preselected', async () => {
    mockFetch(() => LIST);
    renderWithProviders(<StaffUsersPage />);
    await screen.findByText('Ada Admin');
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add New User')).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: /Role/ })).toHaveProperty('value', 'Admin');
  });
});
