import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, showAllColumns } from '../../../ui/data-table/testing.tsx';
import { customerRow } from './testing.ts';
import { CustomersPage } from './CustomersPage.tsx';

vi.mock('../../../api/realtime.ts', async () => (await import('./testing.ts')).customerRealtimeModule);

/** The phone query answers `matches`; other queries never match. */
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

const LIST = {
  data: [
    customerRow(),
    customerRow({
      id: 8,
      full_name: 'Nina New',
      email: 'nina@example.test',
      balance: '0.00000000',
      equity: '-12.40',
      ftd_at: null,
      ftd_amount: null,
      ftd_currency: null,
      kyc_status: 'none',
      last_login_at: null,
    }),
  ],
  meta: { total: 2, per_page: 15, page: 1 },
};
const lastGet = (calls: Array<{ method: string; query: URLSearchParams }>) =>
  calls.filter((c) => c.method === 'GET').at(-1)!.query;

describe('Customers list, Customer 360', () => {
  it('shows balance, live equity, first deposit, KYC state and last login', async () => {
    phone(false);
    mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="all" />);
    const carl = (await screen.findByText('Carl Client')).closest('tr') as HTMLElement;
    const nina = screen.getByText('Nina New').closest('tr') as HTMLElement;
    for (const h of ['BALANCE', 'EQUITY', 'FTD', 'KYC'])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    // Last login starts hidden (the chooser shows it) so status and actions fit at 1440 px.
    expect(screen.queryByRole('columnheader', { name: 'LAST LOGIN' })).toBeNull();
    await showAllColumns();
    expect(screen.getByRole('columnheader', { name: 'LAST LOGIN' })).toBeTruthy();
    expect(within(carl).getByText('$262.50')).toBeTruthy();
    expect(within(carl).getByText('02/03/2026')).toBeTruthy();
    expect(within(carl).getAllByText('$250.00')).toHaveLength(2);
    expect(within(carl).getByText('Pending')).toBeTruthy();
    expect(within(carl).getByText(/05\/03\/2026/)).toBeTruthy();
    expect(within(nina).getByText('-$12.40')).toBeTruthy();
    expect(within(nina).getByText('Not submitted')).toBeTruthy();
  });

  it('sorts on the server from a figure header: largest first, then smallest, then the list order', async () => {
    phone(false);
    const { calls } = mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="all" />);
    await screen.findByText('Carl Client');
    expect(lastGet(calls).get('sort')).toBeNull();
    const equity = () => within(screen.getByRole('columnheader', { name: 'EQUITY' })).getByRole('button');
    fireEvent.click(equity());
    await waitFor(() => expect(lastGet(calls).get('sort')).toBe('equity'));
    expect(lastGet(calls).get('dir')).toBe('desc');
    fireEvent.click(equity());
    await waitFor(() => expect(lastGet(calls).get('dir')).toBe('asc'));
    fireEvent.click(equity());
    await waitFor(() => expect(lastGet(calls).get('sort')).toBeNull());
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'KYC' })).getByRole('button'));
    await waitFor(() => expect(lastGet(calls).get('sort')).toBe('kyc_status'));
    // The export keeps the filters (the server exports newest first).
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('sort=kyc_status');
  });

  it('filters by KYC state, first deposit and ranges from the Filters panel, and refuses a backwards range', {
    timeout: 60_000,
  }, async () => {
    phone(false);
    const { calls } = mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="all" />);
    await screen.findByText('Carl Client');
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = await screen.findByRole('group', { name: 'Customer filters', hidden: true });
    fireEvent.click(within(panel).getByRole('combobox', { name: 'KYC', hidden: true }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pending', hidden: true }));
    fireEvent.click(within(panel).getByRole('radio', { name: 'Made', hidden: true }));
    fireEvent.change(within(panel).getByLabelText('Equity from'), { target: { value: '500' } });
    fireEvent.change(within(panel).getByLabelText('Equity to'), { target: { value: '100' } });
    expect(await within(panel).findByText('The minimum must not be above the maximum.')).toBeTruthy();
    expect((within(panel).getByRole('button', { name: 'Apply', hidden: true }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(within(panel).getByLabelText('Equity to'), { target: { value: '2500.50' } });
    fireEvent.click(within(panel).getByRole('combobox', { name: 'Sort by', hidden: true }));
    fireEvent.click(await screen.findByRole('option', { name: 'Equity', hidden: true }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Apply', hidden: true }));
    await waitFor(() => expect(lastGet(calls).get('kyc')).toBe('pending'));
    const q = lastGet(calls);
    expect(Object.fromEntries(q)).toMatchObject({
      ftd: 'yes',
      equityMin: '500',
      equityMax: '2500.50',
      sort: 'equity',
      dir: 'desc',
      page: '1',
    });
    expect(screen.getByRole('button', { name: /Filters/ }).textContent).toContain('4');
    // Clear takes every filter and the sort off.
    fireEvent.click(screen.getByRole('button', { name: /Filters/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Clear', hidden: true }));
    await waitFor(() => expect(lastGet(calls).get('kyc')).toBeNull());
    expect(lastGet(calls).get('sort')).toBeNull();
  });

  it('shows a card a customer on a phone, with the figures readable', async () => {
    phone(true);
    mockFetch(() => LIST);
    renderWithProviders(<CustomersPage type="all" />);
    const card = await screen.findByTestId('data-card-7');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card.textContent).toContain('Carl Client');
    expect(card.textContent).toContain('carl@example.test');
    expect(card.textContent).toContain('$262.50');
    expect(card.textContent).toContain('02/03/2026 · $250.00');
    expect(within(card).getByText('Pending')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByTestId('data-card-8').textContent).toContain('Not submitted');
  });
});
