import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LeadItem } from '@platform/domain';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { customer360Row } from '../customers/testing.ts';
import { LeadsPage } from './LeadsPage.tsx';

/** Customer 360 on the CRM lead lists: the lead's customer's figures as columns (and cards), sorted by the server. */
const phone = (matches: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
afterEach(() => vi.unstubAllGlobals());

const c360 = customer360Row({ online: true });

function lead(o: Partial<LeadItem> = {}): LeadItem {
  return {
    id: 51,
    first_name: 'Olga',
    last_name: 'Owner',
    email: 'olga@mail.example.com',
    phone: '+44 7700 900555',
    notes: [],
    country: 'France',
    city: 'Paris',
    funnel_link: null,
    reference: null,
    lead_source_id: null,
    lead_status: 'New',
    group: 'retentions',
    source: 'manual',
    manager: null,
    agent: null,
    retAgent: { id: 6, full_name: 'Rita Retention' },
    manager_id: null,
    agent_id: null,
    ret_id: 6,
    created_at: '2026-05-01T09:00:00Z',
    deposited_at: null,
    ftd_at: '2026-03-02T10:15:00.000Z',
    last_access: null,
    user: null,
    linked: { id: 7 },
    role_id: 3,
    is_email_verified: true,
    masked: false,
    customer: c360,
    ...o,
  };
}
const ROWS = [lead(), lead({ id: 52, first_name: 'Nora', linked: null, customer: null, ftd_at: null })];

function serve(roleId: number, rows: LeadItem[]) {
  return mockFetch((c: FetchCall) => {
    if (c.path === '/auth/user') return currentUser(roleId, 99);
    if (c.path === '/admin/crm-config/sales-statuses/api')
      return { data: [], meta: { total: 0, per_page: 999, page: 1 } };
    if (c.path.startsWith('/admin/share/users/role/') || c.path.startsWith('/admin/crm/voiso')) return { data: [] };
    return { data: rows, meta: { total: rows.length, per_page: 15, page: 1 } };
  });
}
const lastList = (calls: FetchCall[]) => calls.filter((c) => c.path.startsWith('/affiliate/leads')).at(-1)!.query;

describe('lead lists, Customer 360', () => {
  // The lead screen is heavy (calls, tasks, outcomes): on a loaded 2-core machine it needs more than the usual 20 s.
  it("shows each lead its customer's equity, KYC state and presence, and sorts by them on the server", {
    timeout: 60_000,
  }, async () => {
    phone(false);
    const { calls } = serve(1, ROWS);
    renderWithProviders(<LeadsPage screen={{ kind: 'retentions' }} />);
    const olga = (await screen.findByText('Olga')).closest('tr') as HTMLElement;
    const nora = screen.getByText('Nora').closest('tr') as HTMLElement;
    // One compact CUSTOMER column in view; balance, equity, KYC, last login and presence apart in the chooser.
    expect(screen.getByRole('columnheader', { name: 'CUSTOMER' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'EQUITY' })).toBeNull();
    expect(within(olga).getByText('$262.50')).toBeTruthy();
    expect(within(olga).getByText('Pending')).toBeTruthy();
    expect(within(olga).getByLabelText('Online')).toBeTruthy();
    // A lead without a customer shows no figures.
    expect(within(nora).queryByLabelText('Online')).toBeNull();
    expect(within(nora).queryByText('Pending')).toBeNull();
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'CUSTOMER' })).getByRole('button'));
    await waitFor(() => expect(lastList(calls).get('sort')).toBe('equity'));
    expect(lastList(calls).get('dir')).toBe('desc');
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
    await showAllColumns();
    for (const h of ['BALANCE', 'EQUITY', 'KYC', 'LAST LOGIN', 'ONLINE', 'FTD AT'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(olga).getByText('02/03/2026')).toBeTruthy();
  });

  it('gives affiliates neither the figures nor the filters', async () => {
    phone(false);
    serve(4, [lead({ customer: null })]);
    renderWithProviders(<LeadsPage screen={{ kind: 'affiliate' }} />);
    await screen.findByText('Olga');
    expect(screen.queryByRole('columnheader', { name: 'CUSTOMER' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Filters' })).toBeNull();
  });

  it('shows a card a lead on a phone, with its customer and actions', async () => {
    phone(true);
    serve(1, ROWS);
    renderWithProviders(<LeadsPage screen={{ kind: 'retentions' }} />);
    const card = await screen.findByTestId('data-card-51');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card.textContent).toContain('Olga Owner');
    expect(card.textContent).toContain('$262.50');
    expect(within(card).getByLabelText('Online')).toBeTruthy();
    expect(within(card).getByLabelText('Select row')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.getByTestId('data-card-52').textContent).toContain('Nora');
  });
});
