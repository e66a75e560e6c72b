import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, showAllColumns } from '../../../ui/data-table/testing.tsx';
import { emitRealtime } from '../../trading/testing.ts';
import { customerRow } from './testing.ts';
import { CustomersPage } from './CustomersPage.tsx';

vi.mock('../../../api/realtime.ts', async () => (await import('./testing.ts')).customerRealtimeModule);

const LIST = {
  data: [
    customerRow({ online: true }),
    customerRow({
      id: 8,
      full_name: 'Ina Idle',
      email: 'ina@example.test',
      is_active: false,
      is_email_verified: false,
      phone: null,
    }),
  ],
  meta: { total: 2, per_page: 15, page: 1 },
};

describe('CustomersPage', () => {
  it('lists customers with the spec columns, online dots that follow presence events, and links to the edit screen', async () => {
    const { calls } = mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="all" />);
    const carl = (await screen.findByText('Carl Client')).closest('tr') as HTMLElement;
    const ina = screen.getByText('Ina Idle').closest('tr') as HTMLElement;
    await showAllColumns();
    for (const h of [
      'ID',
      'FULL NAME',
      'EMAIL',
      'PHONE',
      'BIRTH DATE',
      'COUNTRY',
      'ROLE',
      'EMAIL VERIFIED',
      'STATUS',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(carl).getByLabelText('Online')).toBeTruthy();
    expect(within(carl).getByText('Customer')).toBeTruthy();
    expect(within(carl).getByText('Active')).toBeTruthy();
    expect(within(carl).getByText('04/05/1990')).toBeTruthy();
    expect(within(ina).getByLabelText('Offline')).toBeTruthy();
    expect(within(ina).getByText('Inactive')).toBeTruthy();
    expect(within(ina).getByText('No')).toBeTruthy();
    expect(within(ina).getAllByText('-').length).toBeGreaterThan(0);
    expect(within(carl).getByRole('link').getAttribute('href')).toBe('/admin/customers/edit/7');
    expect(calls[0].path).toBe('/admin/customers/api/all');
    emitRealtime('presence', { userId: 8, online: true });
    emitRealtime('presence', { userId: 7, online: false });
    await waitFor(() => expect(within(ina).getByLabelText('Online')).toBeTruthy());
    expect(within(carl).getByLabelText('Offline')).toBeTruthy();
  });

  it('reads the inactive list for the inactive type', async () => {
    const { calls } = mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="inactive" />);
    await screen.findByText('Carl Client');
    expect(calls[0].path).toBe('/admin/customers/api/inactive');
  });

  it('deletes after the confirmation with the spec toast and reloads', async () => {
    const { calls } = mockFetch((c) => (c.method === 'DELETE' ? { message: 'Customers deleted successfully' } : LIST));
    renderWithProviders(<CustomersPage type="all" />);
    const ina = (await screen.findByText('Ina Idle')).closest('tr') as HTMLElement;
    fireEvent.click(within(ina).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this user?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Customers deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/customers/8');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('explains a refused delete (open positions)', async () => {
    const reason = 'This customer has open positions. Close them before deleting the customer.';
    mockFetch((c) => (c.method === 'DELETE' ? { status: 409, body: { message: reason } } : LIST));
    renderWithProviders(<CustomersPage type="all" />);
    const carl = (await screen.findByText('Carl Client')).closest('tr') as HTMLElement;
    fireEvent.click(within(carl).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText(reason)).toBeTruthy();
  });

  it('adds a customer through the modal with the spec validation messages', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'POST'
        ? { status: 201, body: { message: 'Customer added successfully', id: 9 } }
        : c.path === '/countries'
          ? []
          : LIST,
    );
    renderWithProviders(<CustomersPage type="all" />);
    await screen.findByText('Carl Client');
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    const dialog = await screen.findByRole('dialog');
    // Accounts staff create start verified (the back-office spec's default).
    expect((within(dialog).getByLabelText('Email Verified') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Full name is required')).toBeTruthy();
    expect(within(dialog).getByText('Email is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('Enter full name'), { target: { value: 'Nina New' } });
    fireEvent.change(within(dialog).getByPlaceholderText('Enter email'), { target: { value: 'nina@example' } });
    fireEvent.change(within(dialog).getByPlaceholderText('Enter password'), { target: { value: 'short' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Invalid email')).toBeTruthy();
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('Enter email'), { target: { value: 'nina@example.test' } });
    fireEvent.change(within(dialog).getByPlaceholderText('Enter password'), { target: { value: 'Password123' } });
    fireEvent.change(within(dialog).getByPlaceholderText('Enter phone'), { target: { value: '+33 1 23 45 67 89' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Customer added successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/customers');
    expect(post?.body).toMatchObject({
      fullName: 'Nina New',
      email: 'nina@example.test',
      password: 'Password123',
      isActive: true,
      isEmailVerified: true,
      phone: '+33 1 23 45 67 89',
    });
  });
});
