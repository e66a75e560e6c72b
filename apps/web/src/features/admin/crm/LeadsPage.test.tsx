import { afterEach, describe, expect, it } from 'vitest';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LeadItem } from '@platform/domain';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { LeadsPage, leadsUrl } from './LeadsPage.tsx';
import { SalesStatusesPage } from './SalesStatusesPage.tsx';
import { leadItem } from './testing.ts';

// Toasts of one test must not fill the queue of the next (only a few are shown at once).
afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

function leadRow(o: Partial<LeadItem> = {}): LeadItem {
  return leadItem({
    notes: [
      {
        id: 1,
        content: 'Called, asked to ring back after 6pm.',
        created_at: '2026-05-01T10:00:00Z',
        user: { id: 5, full_name: 'Sam Sales' },
      },
    ],
    reference: 'AFF-1',
    manager: { id: 2, full_name: 'Max Manager' },
    manager_id: 2,
    ...o,
  });
}
const STATUSES = {
  data: [
    { id: 1, status: 'New', is_default: true, leads: 3 },
    { id: 4, status: 'Not Interested', is_default: false, leads: 0 },
  ],
  meta: { total: 2, per_page: 999, page: 1 },
};

function serve(roleId: number, rows: LeadItem[], extra: (c: FetchCall) => unknown = () => undefined) {
  return mockFetch((c) => {
    const e = extra(c);
    if (e !== undefined) return e as never;
    if (c.path === '/auth/user') return currentUser(roleId, 99);
    if (c.path === '/admin/crm-config/sales-statuses/api') return STATUSES;
    if (c.path.startsWith('/admin/share/users/role/'))
      return { data: [{ id: 5, full_name: 'Sam Sales', email: 'agent@demo.test' }] };
    if (c.path.startsWith('/admin/leads/') && c.path.endsWith('/history')) return { data: [] };
    if (c.method === 'PUT' && c.path === '/admin/leads/bulk') return { message: 'ok' };
    return { data: rows, meta: { total: rows.length, per_page: 15, page: 1 } };
  });
}

describe('leadsUrl', () => {
  it('builds the spec urls, spaces in the status as underscores', () => {
    expect(leadsUrl({ kind: 'sales', type: 'manual' }, 'Not Interested', null)).toBe(
      '/affiliate/leads/api/sales/Not_Interested/manual',
    );
    expect(leadsUrl({ kind: 'retentions' }, 'All', { start: '2026-01-01', end: '2026-01-31' })).toBe(
      '/affiliate/leads/api/retentions/All/2026-01-01/2026-01-31',
    );
    expect(leadsUrl({ kind: 'new', type: 'live' }, 'All', null)).toBe('/affiliate/leads/api/new/All/live');
    expect(leadsUrl({ kind: 'affiliate' }, 'New', null)).toBe('/affiliate/leads/api');
  });
});

describe('LeadsPage', () => {
  it('lists sales leads with the spec columns, filters by status, moves the selection and clears it', async () => {
    const { calls } = serve(1, [leadRow(), leadRow({ id: 42, first_name: 'Tom', notes: [] })]);
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const hannah = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    await showAllColumns();
    for (const h of [
      'ID',
      'FIRST NAME',
      'EMAIL',
      'PHONE',
      'NOTES',
      'SALE STATUS',
      'GROUP',
      'SALE MANAGER',
      'SALE AGENT',
      'ACTIONS',
      'REGISTERED AT',
      'RETENTION AGENT',
      'FTD AT',
      'AFFILIATOR',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(hannah).getByText('Called, aske…')).toBeTruthy();
    expect(calls.find((c) => c.path.startsWith('/affiliate/leads'))?.path).toBe('/affiliate/leads/api/sales/All/all');
    expect(screen.getByRole('button', { name: 'Filter Agent' })).toBeTruthy();

    const move = screen.getByRole('button', { name: 'Send to Retentions' }) as HTMLButtonElement;
    expect(move.disabled).toBe(true);
    fireEvent.click(within(hannah).getByLabelText('Select row'));
    expect(move.disabled).toBe(false);
    fireEvent.click(move);
    expect(await screen.findByText('Lead moved successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [41], data: { group: 'retentions' } });
    await waitFor(() => expect(move.disabled).toBe(true));

    fireEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Not Interested', hidden: true }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/affiliate/leads/api/sales/Not_Interested/all')).toBe(true),
    );
  });

  it('assigns the selection to an agent from the Agent Selector', async () => {
    const { calls } = serve(2, [leadRow()]);
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByLabelText('Select row'));
    fireEvent.click(screen.getByRole('button', { name: 'Assign Agent' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sam Sales' }));
    expect(await screen.findByText('Agents assigned successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [41], data: { agentId: 5 } });
  });

  it('gives agents no agent filter, assignment or Send to Sales, masked contacts, and an edit form without pickers', async () => {
    serve(6, [leadRow({ group: 'retentions', email: 'hawn****@mail.example.com', phone: '******23', masked: true })]);
    renderWithProviders(<LeadsPage screen={{ kind: 'retentions' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    expect(within(row).getByText('hawn****@mail.example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Filter Agent' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Assign Retention Agent' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send to Sales' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Bulk archive' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Phone' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Edit Lead')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'City' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Lead Status' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Agent' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Manager' })).toBeNull();
  });

  it('edits a lead as an admin with the spec payload', async () => {
    const { calls } = serve(1, [leadRow()], (c) =>
      c.method === 'PUT' && c.path === '/admin/leads/41' ? { message: 'Lead edited successfully' } : undefined,
    );
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'City' }), { target: { value: 'York' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Lead edited successfully')).toBeTruthy();
    expect(calls.find((c) => c.path === '/admin/leads/41')?.body).toMatchObject({
      firstName: 'Hannah',
      city: 'York',
      leadStatus: 'New',
      managerId: 2,
      agentId: 5,
      retId: -2,
    });
  });

  it('adds notes from the Notes modal', async () => {
    const note = {
      id: 9,
      content: 'Wants a demo',
      created_at: '2026-05-02T10:00:00Z',
      user: { id: 99, full_name: 'Ada Admin' },
    };
    const { calls } = serve(1, [leadRow()], (c) =>
      c.path === '/admin/crm/note' ? { message: 'Notes created successfully', note } : undefined,
    );
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Notes' }));
    expect(await screen.findByText('Called, asked to ring back after 6pm.')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Enter note'), { target: { value: 'Wants a demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Notes created successfully')).toBeTruthy();
    expect(calls.find((c) => c.path === '/admin/crm/note')?.body).toEqual({ content: 'Wants a demo', leadId: 41 });
    expect(await screen.findByText('Wants a demo')).toBeTruthy();
  });

  it('converts a lead and deletes one after the confirmation', async () => {
    const { calls } = serve(1, [leadRow()], (c) => {
      if (c.path === '/admin/leads/convertLeadToUser') return { message: 'Lead converted successfully', userId: 77 };
      if (c.method === 'DELETE') return { message: 'Lead deleted successfully' };
      return undefined;
    });
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Convert' }));
    expect(await screen.findByText('Convert Lead #41 To User')).toBeTruthy();
    expect(screen.getByTestId('convert-sign-in-note').textContent).toContain('can sign in at once');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Password123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Lead converted successfully')).toBeTruthy();
    expect(calls.find((c) => c.path === '/admin/leads/convertLeadToUser')?.body).toEqual({
      id: 41,
      password: 'Password123',
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this lead?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Lead deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/leads/41');
  });
});

describe('SalesStatusesPage', () => {
  it('lists statuses, refuses an empty status and adds one with the spec toast', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'POST' ? { message: 'Sales Status added successfully' } : STATUSES,
    );
    renderWithProviders(<SalesStatusesPage />);
    const row = (await screen.findByText('Not Interested')).closest('tr') as HTMLElement;
    for (const h of ['STATUS', 'IS DEFAULT', 'ACTIONS'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(row).getByText('No')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Status is required')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Status' }), { target: { value: 'Hot' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Sales Status added successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ status: 'Hot', isDefault: false });
  });

  it('edits a status and explains a refused delete (leads still have it)', async () => {
    const reason = '3 leads have the status "New". Give them another status first.';
    const { calls } = mockFetch((c) => {
      if (c.method === 'PUT') return { message: 'Sales Status updated successfully' };
      if (c.method === 'DELETE') return { status: 409, body: { message: reason } };
      return STATUSES;
    });
    renderWithProviders(<SalesStatusesPage />);
    const row = (await screen.findByText('Not Interested')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const input = await screen.findByRole('textbox', { name: 'Status' });
    expect((input as HTMLInputElement).value).toBe('Not Interested');
    fireEvent.change(input, { target: { value: 'Not Now' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Sales Status updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/admin/crm-config/sales-statuses/4',
      body: { status: 'Not Now', isDefault: false },
    });
    const newRow = screen.getByText('New').closest('tr') as HTMLElement;
    fireEvent.click(within(newRow).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this sale status?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText(reason)).toBeTruthy();
  });
});
