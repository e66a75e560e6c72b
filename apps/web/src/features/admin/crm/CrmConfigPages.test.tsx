import { afterEach, describe, expect, it } from 'vitest';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TeamItem } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { TeamsPage } from './TeamsPage.tsx';
import { PromoCodePage } from './PromoCodePage.tsx';

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

const TEAMS: TeamItem[] = [
  {
    id: 7,
    name: 'Lions',
    code: 'LN',
    user_id: 2,
    manager: { id: 2, full_name: 'Max Manager' },
    members: [
      { id: 5, full_name: 'Sam Sales', role_id: 5 },
      { id: 6, full_name: 'Rita Retention', role_id: 6 },
    ],
  },
  { id: 8, name: 'Tigers', code: null, user_id: null, manager: null, members: [] },
];
const STAFF: Record<string, Array<{ id: number; full_name: string; email: string }>> = {
  '2': [{ id: 2, full_name: 'Max Manager', email: 'manager@demo.test' }],
  '5': [{ id: 5, full_name: 'Sam Sales', email: 'agent@demo.test' }],
  '6': [{ id: 6, full_name: 'Rita Retention', email: 'retention@demo.test' }],
};

function serveTeams(extra: (c: FetchCall) => unknown = () => undefined) {
  return mockFetch((c) => {
    const e = extra(c);
    if (e !== undefined) return e as never;
    if (c.path.startsWith('/admin/share/users/role/')) return { data: STAFF[c.path.split('/').pop()!] };
    return { data: TEAMS, meta: { total: TEAMS.length, per_page: 15, page: 1 } };
  });
}

/** Picks an option of a Mantine Select or MultiSelect by its label. */
async function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('TeamsPage', () => {
  it('lists teams with NAME, CODE, MANAGER ("-" without one) and ACTIONS', async () => {
    const { calls } = serveTeams();
    renderWithProviders(<TeamsPage />);
    const lions = (await screen.findByText('Lions')).closest('tr') as HTMLElement;
    for (const h of ['NAME', 'CODE', 'MANAGER', 'ACTIONS'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(lions).getByText('Max Manager')).toBeTruthy();
    const tigers = screen.getByText('Tigers').closest('tr') as HTMLElement;
    expect(within(tigers).getAllByText('-')).toHaveLength(2);
    expect(calls[0]).toMatchObject({ path: '/admin/crm-config/teams/api' });
    expect(calls[0].query.get('limit')).toBe('15');
  });

  it('requires a name and a manager, then adds a team of agents and retention agents', async () => {
    const { calls } = serveTeams((c) => (c.method === 'POST' ? { message: 'Team added successfully' } : undefined));
    renderWithProviders(<TeamsPage />);
    await screen.findByText('Lions');
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Manager is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Bears' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Code' }), { target: { value: 'BR' } });
    await choose('Manager', 'Max Manager');
    await choose('Agents', 'Sam Sales');
    await choose('Agents', 'Rita Retention');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Team added successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/admin/crm-config/teams',
      body: { name: 'Bears', code: 'BR', userId: '2', userIds: [{ id: 5 }, { id: 6 }] },
    });
  });

  it("edits a team from its current values, shows the server's refusal, and deletes after the confirmation", async () => {
    const refusal = 'Team members must be active agents or retention agents (not user #6).';
    let puts = 0;
    const { calls } = serveTeams((c) => {
      if (c.method === 'PUT')
        return ++puts === 1
          ? { status: 400, body: { message: refusal, errors: { userIds: refusal } } }
          : { message: 'Team updated successfully' };
      if (c.method === 'DELETE') return { message: 'Team deleted successfully' };
      return undefined;
    });
    renderWithProviders(<TeamsPage />);
    const lions = (await screen.findByText('Lions')).closest('tr') as HTMLElement;
    fireEvent.click(within(lions).getByRole('button', { name: 'Edit' }));
    const name = (await screen.findByRole('textbox', { name: 'Name' })) as HTMLInputElement;
    expect(name.value).toBe('Lions');
    fireEvent.change(name, { target: { value: 'Lions Two' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect((await screen.findAllByText(refusal)).length).toBeGreaterThan(0);
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/admin/crm-config/teams/7',
      body: { name: 'Lions Two', code: 'LN', userId: '2', userIds: [{ id: 5 }, { id: 6 }] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Team updated successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(
      within(screen.getByText('Tigers').closest('tr') as HTMLElement).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Are you sure to delete this team?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Team deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/crm-config/teams/8');
  });
});

describe('PromoCodePage', () => {
  it('shows the placeholder without a code, generates one and shows it', async () => {
    let code: string | null = null;
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST') {
        code = 'K7QM3XPA';
        return { message: 'Promo code generated successfully', code, created_at: '2026-05-01T10:00:00Z' };
      }
      return { code, created_at: code ? '2026-05-01T10:00:00Z' : null };
    });
    renderWithProviders(<PromoCodePage />);
    const field = (await screen.findByPlaceholderText('Click generate to get promo code')) as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    expect(field.value).toBe('');
    const generate = screen.getByRole('button', { name: 'Generate' });
    await waitFor(() => expect((generate as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(generate);
    expect(await screen.findByText('Promo code generated successfully')).toBeTruthy();
    await waitFor(() => expect(field.value).toBe('K7QM3XPA'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it("shows the current code, and the server's message when generating fails", async () => {
    mockFetch((c) =>
      c.method === 'POST'
        ? { status: 503, body: { message: 'No promo code could be generated. Please try again.' } }
        : { code: 'ABCD2345', created_at: '2026-05-01T10:00:00Z' },
    );
    renderWithProviders(<PromoCodePage />);
    await waitFor(() =>
      expect((screen.getByPlaceholderText('Click generate to get promo code') as HTMLInputElement).value).toBe(
        'ABCD2345',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('No promo code could be generated. Please try again.')).toBeTruthy();
  });
});
