import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { CustomerDetailResponse } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { emitRealtime } from '../../trading/testing.ts';
import { currentUser } from '../fixtures.ts';
import { customerDetail, fakeSocket } from './testing.ts';
import { EditCustomerPage } from './EditCustomerPage.tsx';
import { goTo, reloadPage } from './navigation.ts';

vi.mock('../../../api/realtime.ts', async () => (await import('./testing.ts')).customerRealtimeModule);
vi.mock('./navigation.ts', () => ({ goTo: vi.fn(), reloadPage: vi.fn() }));

beforeEach(() => {
  vi.mocked(goTo).mockReset();
  vi.mocked(reloadPage).mockReset();
  fakeSocket.emitted = [];
  fakeSocket.watchReply = { ok: true };
});

const EMPTY = { data: [], meta: { total: 0, per_page: 15, page: 1 } };

function api(
  viewerRole: number,
  detail: CustomerDetailResponse | { status: number; body: unknown } = customerDetail(),
  extra?: (c: FetchCall) => unknown,
) {
  return mockFetch((c) => {
    const custom = extra?.(c);
    if (custom !== undefined) return custom;
    if (c.path === '/auth/user') return currentUser(viewerRole, 99);
    if (c.path === '/admin/share/users/7') return detail;
    if (c.path === '/admin/share/users/role/2')
      return { data: [{ id: 2, full_name: 'Max Manager', email: 'max@demo.test' }] };
    if (c.path === '/dashboard/pricing')
      return { data: [{ id: 4, name: 'Gold', price: '10' }], meta: { total: 1, per_page: 100, page: 1 } };
    if (c.path === '/countries') return [{ name: { common: 'France' } }];
    return EMPTY;
  });
}

const renderPage = (id = 7) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/customers/edit/:id" element={<EditCustomerPage />} />
    </Routes>,
    { route: `/admin/customers/edit/${id}` },
  );

describe('EditCustomerPage', () => {
  it('shows the summary with every balance and adjusts one with a reason, then reloads', async () => {
    const { calls } = api(1, customerDetail(), (c) =>
      c.method === 'PUT' && c.path === '/admin/balance/11'
        ? { message: 'Balance updated successfully', balance: '300' }
        : undefined,
    );
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Carl Client' })).toBeTruthy();
    expect(screen.getAllByText('carl@example.test').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Active').length).toBeGreaterThan(0);
    const real = screen.getByTestId('balance-11');
    expect(within(real).getByText('Real')).toBeTruthy();
    expect(within(real).getByText('$250.00')).toBeTruthy();
    expect(within(screen.getByTestId('balance-12')).getByText('Demo')).toBeTruthy();
    fireEvent.click(within(real).getByRole('button', { name: 'Add Balance' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Amount is required')).toBeTruthy();
    expect(within(dialog).getByText('Reason is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '50' } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Welcome bonus' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Balance updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ amount: '50', type: 'add', reason: 'Welcome bonus' });
    expect(reloadPage).toHaveBeenCalled();
  });

  it('shows the server’s refusal of a subtraction', async () => {
    const refusal = 'The wallet cannot go below zero or below the margin its open positions hold.';
    api(1, customerDetail(), (c) => (c.method === 'PUT' ? { status: 400, body: { message: refusal } } : undefined));
    renderPage();
    fireEvent.click(within(await screen.findByTestId('balance-11')).getByRole('button', { name: 'Subtract Balance' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '999' } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Fix' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subtract' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('logs in as the customer: sets the back-to-admin flag and goes to the site root', async () => {
    const { calls } = api(1, customerDetail(), (c) =>
      c.method === 'POST' ? { message: 'Logged in as customer', redirect: '/' } : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Login as' }));
    await waitFor(() => expect(goTo).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/admin/customers/login-as/7');
    expect(localStorage.getItem('backToAdmin')).toBe('enabled');
    expect(localStorage.getItem('retAgent')).toBeNull();
  });

  it('saves the profile with the manager and plan as an admin', async () => {
    const { calls } = api(1, customerDetail(), (c) =>
      c.method === 'PUT' ? { message: 'Customer updated successfully' } : undefined,
    );
    renderPage();
    const city = await screen.findByLabelText('City');
    expect((city as HTMLInputElement).value).toBe('Paris');
    fireEvent.change(city, { target: { value: 'Lyon' } });
    expect((screen.getByLabelText('Manager', { selector: 'input' }) as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Customer updated successfully')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/admin/customers/7');
    expect(put?.body).toMatchObject({
      fullName: 'Carl Client',
      email: 'carl@example.test',
      city: 'Lyon',
      managerId: 2,
      pricingTableId: -2,
    });
    expect((put!.body as { password?: string }).password).toBeUndefined();
  });

  it('disables the manager and plan pickers for a manager and does not send them', async () => {
    const { calls } = api(2, customerDetail(), (c) =>
      c.method === 'PUT' ? { message: 'Customer updated successfully' } : undefined,
    );
    renderPage();
    await screen.findByLabelText('City');
    expect((screen.getByLabelText('Manager', { selector: 'input' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Plan', { selector: 'input' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Customer updated successfully');
    const body = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect('managerId' in body).toBe(false);
    expect('pricingTableId' in body).toBe(false);
  });

  it('is read-only for a retention agent: masked contacts, no submit, no balance controls, no money tabs, no Login as', async () => {
    api(
      6,
      customerDetail({
        email: 'ca****@example.test',
        read_only: true,
        profile: { ...customerDetail().profile, phone: '******01' },
      }),
      (c) => (c.method === 'POST' ? { message: 'ok', redirect: '/' } : undefined),
    );
    renderPage();
    expect(await screen.findByDisplayValue('******01')).toBeTruthy();
    expect((screen.getByPlaceholderText('Enter email') as HTMLInputElement).value).toBe('ca****@example.test');
    expect((screen.getByPlaceholderText('Enter email') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect((screen.getByLabelText('Active') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Email Verified') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Manager', { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Balance' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Deposits' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Statement' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Stop-outs' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Tracking' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Login as' })).toBeNull();
  });

  it('reads the history tabs of this customer without a search box', async () => {
    const { calls } = api(1);
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'Deposits' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/deposits/api/history/7')).toBe(true));
    expect(screen.queryByPlaceholderText(/Search/)).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Withdraws' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/withdraws/api/history/7')).toBe(true));
    fireEvent.click(screen.getByRole('tab', { name: 'Trades' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/trades/api/all/7')).toBe(true));
    expect(screen.getByRole('columnheader', { name: 'OPEN RATE' })).toBeTruthy();
  });

  it("downloads the customer's statement for a wallet and period and lists their stop-outs", async () => {
    const { calls } = api(2, customerDetail(), (c) =>
      c.path === '/admin/customers/7/stopouts'
        ? {
            data: [
              {
                id: 3,
                wallet_id: 11,
                currency: 'USD',
                mode: 'real',
                created_at: '2025-03-06T10:20:00Z',
                margin_level: '48.5',
                equity: '120',
                balance: '900',
                protection_credit: '0',
                positions: [{ id: 55, instrument: 'BTC_USD', side: 'buy', amount: '0.5', price: '60000', pl: '-780' }],
              },
            ],
            meta: { total: 1, per_page: 10, page: 1 },
          }
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'Statement' }));
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('PDF')).toBe('/api/admin/customers/7/statement?walletId=11&format=pdf');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-01' } });
    fireEvent.blur(screen.getByLabelText('From'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-31' } });
    fireEvent.blur(screen.getByLabelText('To'));
    await waitFor(() =>
      expect(href('XLSX')).toBe(
        '/api/admin/customers/7/statement?walletId=11&dateStart=2025-01-01&dateEnd=2025-03-31&format=xlsx',
      ),
    );
    expect(href('CSV')).toBe('/api/admin/customers/7/statement?walletId=11&dateStart=2025-01-01&dateEnd=2025-03-31');
    fireEvent.click(screen.getByRole('tab', { name: 'Stop-outs' }));
    const card = await screen.findByTestId('stopout-3');
    expect(card.textContent).toContain('48.50 %');
    expect(card.textContent).toContain('BTC/USD');
    expect(card.textContent).toContain('-$780.00');
    expect(calls.some((c) => c.path === '/admin/customers/7/stopouts')).toBe(true);
  });

  it('tracks the customer live: watches on opening, lists each new url once', async () => {
    api(1);
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'Tracking' }));
    await waitFor(() => expect(fakeSocket.emitted).toContainEqual({ event: 'track:watch', payload: { userId: 7 } }));
    expect(await screen.findByText('No data found')).toBeTruthy();
    emitRealtime('track:7', { url: '/dashboard', time: '2024-05-01T10:00:00Z' });
    emitRealtime('track:7', { url: '/deposits', time: '2024-05-01T10:01:00Z' });
    emitRealtime('track:7', { url: '/dashboard', time: '2024-05-01T10:02:00Z' });
    expect(await screen.findByText('/deposits')).toBeTruthy();
    expect(screen.getAllByText('/dashboard')).toHaveLength(1);
    fireEvent.click(screen.getByRole('tab', { name: 'Profile' }));
    await waitFor(() => expect(fakeSocket.emitted).toContainEqual({ event: 'track:unwatch', payload: { userId: 7 } }));
  });

  it("opens a staff member's own Profile with their name to change and the way to Security", async () => {
    // The viewer (id 99, a manager) opens their own account from the header's Profile item.
    const own = customerDetail({ id: 99, full_name: 'Max Manager', email: 'max@demo.test', role_id: 2, balances: [] });
    const { calls } = mockFetch((c) => {
      if (c.path === '/auth/user') return currentUser(2, 99);
      if (c.path === '/admin/share/users/99') return own;
      if (c.method === 'PUT' && c.path === '/profile/name') return { message: 'Profile updated successfully' };
      return EMPTY;
    });
    renderPage(99);
    const form = within(await screen.findByTestId('own-profile'));
    const name = form.getByRole('textbox', { name: /Full Name/ }) as HTMLInputElement;
    expect(name.readOnly).toBe(false);
    expect((form.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).readOnly).toBe(true);
    expect(form.getByRole('link', { name: 'Change Password' }).getAttribute('href')).toBe('/security');
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(form.getByRole('button', { name: 'Update' }));
    expect(await form.findByText('Full name is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Max Mustermann' } });
    fireEvent.click(form.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Profile updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/profile/name',
      body: { fullName: 'Max Mustermann' },
    });
  });

  it('schedules a call-back on the customer with the lead row’s dialog, for every role that works customers', async () => {
    const { calls } = api(5, customerDetail(), (c) =>
      c.method === 'POST' && c.path === '/admin/crm/tasks'
        ? { status: 201, body: { message: 'Task scheduled successfully', task: {} } }
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule call-back or task' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'In 1 hour' }));
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Ask about the first deposit' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Task scheduled successfully')).toBeTruthy();
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/admin/crm/tasks');
    expect(sent?.body).toMatchObject({ customerId: 7, kind: 'callback', note: 'Ask about the first deposit' });
    const due = Date.parse((sent?.body as { dueAt?: string } | undefined)?.dueAt ?? '');
    expect(due).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(due).toBeLessThan(Date.now() + 65 * 60_000);
  });

  it('offers no scheduling to a role that does not work customers', async () => {
    api(4);
    renderPage();
    expect(await screen.findByRole('tab', { name: 'Profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Schedule call-back or task' })).toBeNull();
  });

  it('answers an unknown or out-of-scope customer as not found', async () => {
    api(2, { status: 404, body: { message: 'Customer not found.' } });
    renderPage();
    expect(await screen.findByText('This page does not exist.')).toBeTruthy();
  });
});
