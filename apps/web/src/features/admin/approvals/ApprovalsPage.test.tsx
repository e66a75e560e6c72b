import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApprovalDto } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { ApprovalsPage } from './ApprovalsPage.tsx';
import { approvalPendingOf } from './pending.ts';

afterEach(cleanup);

const request = (over: Partial<ApprovalDto> = {}): ApprovalDto => ({
  id: 7,
  kind: 'withdrawal',
  status: 'pending',
  summary: 'Pay out withdrawal #12 of Cara Client: €500.00 to Barclays',
  requested_by: { id: 1, full_name: 'Ada Admin', email: 'ada@demo.test' },
  target_user: { id: 9, full_name: 'Cara Client', email: 'cara@demo.test' },
  before: { withdrawal: 12, status: 'pending', total: '500.00000000' },
  after: { withdrawal: 12, status: 'approved', paidOut: '500.00000000' },
  amount: '500.00000000',
  currency: 'EUR',
  amount_site: '540.00000000',
  site_currency: 'USD',
  threshold: '100.00000000',
  reason: null,
  decided_by: null,
  decided_at: null,
  decision_reason: null,
  last_error: null,
  created_at: '2026-11-26T10:00:00.000Z',
  can_decide: true,
  ...over,
});

const me = (roleId: number) => ({
  user: { id: 2, full_name: 'Ben Admin', email: 'ben@demo.test', role_id: roleId, balances: [] },
});

function server(rows: ApprovalDto[], roleId = 1, onDecision?: (c: FetchCall) => unknown) {
  return mockFetch((c) => {
    if (c.path === '/auth/user') return me(roleId);
    if (c.path === '/admin/approvals') return { data: rows, meta: { total: rows.length, per_page: 15, page: 1 } };
    if (c.path.endsWith('/approve') || c.path.endsWith('/reject')) return onDecision?.(c);
    if (c.path === '/admin/approvals/settings')
      return c.method === 'PUT'
        ? c.body
        : {
            withdrawal: '100.00',
            balanceAdjustment: null,
            deposit: null,
            trade: null,
            planChange: false,
            gatewaySecrets: true,
            siteCurrency: 'USD',
          };
    return { status: 404, body: { message: 'Not found' } };
  });
}

const listCalls = (calls: FetchCall[]) => calls.filter((c) => c.path === '/admin/approvals');

describe('ApprovalsPage', () => {
  it('lists pending requests with the amount in the site currency, and switches status', async () => {
    const { calls } = server([request()]);
    renderWithProviders(<ApprovalsPage />);
    const row = (await screen.findByText(/Pay out withdrawal #12/)).closest('tr') as HTMLElement;
    expect(within(row).getByText('Withdrawal payout')).toBeTruthy();
    expect(within(row).getByText('$540.00')).toBeTruthy();
    expect(within(row).getByText('Ada Admin')).toBeTruthy();
    expect(listCalls(calls)[0].query.get('status')).toBe('pending');
    fireEvent.click(screen.getByText('Rejected'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('status')).toBe('rejected'));
  });

  it('shows before and after, and approves as a second staff member', async () => {
    const { calls } = server([request()], 1, (c) => ({
      message: 'Approved: the action is done.',
      approval: request({ status: 'approved', can_decide: false }),
      path: c.path,
    }));
    renderWithProviders(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    const table = within(dialog).getByRole('table', { name: 'Before and after' });
    expect(within(table).getByText('approved')).toBeTruthy();
    expect(within(dialog).getByText(/€500.00 = \$540.00/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/admin/approvals/7/approve')).toBe(true),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('rejects only with a reason, and shows a failure of the action', async () => {
    const { calls } = server([request()], 2, () => ({
      status: 422,
      body: { message: 'Insufficient free funds' },
    }));
    renderWithProviders(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const confirm = within(dialog).getAllByRole('button', { name: 'Reject' }).at(-1) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Wrong account' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => {
      const post = calls.find((c) => c.path === '/admin/approvals/7/reject');
      expect(post?.body).toEqual({ reason: 'Wrong account' });
    });
    expect(await within(dialog).findByText('Insufficient free funds')).toBeTruthy();
    // Managers do not get the thresholds.
    expect(screen.queryByRole('button', { name: 'Thresholds' })).toBeNull();
  });

  it('tells the requester their own request waits for someone else', async () => {
    server([request({ can_decide: false })]);
    renderWithProviders(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Your own request/)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('lets admins set the thresholds', async () => {
    const { calls } = server([]);
    renderWithProviders(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Thresholds' }));
    const dialog = await screen.findByRole('dialog');
    const withdrawal = within(dialog).getByLabelText('Withdrawal payout above') as HTMLInputElement;
    await waitFor(() => expect(withdrawal.value).toBe('100.00'));
    fireEvent.change(withdrawal, { target: { value: '250' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const put = calls.find((c) => c.method === 'PUT' && c.path === '/admin/approvals/settings');
      expect(put?.body).toMatchObject({ withdrawal: '250', gatewaySecrets: true, planChange: false });
    });
  });
});

describe('approvalPendingOf', () => {
  it('recognises the 202 answer of an action sent for approval', () => {
    expect(approvalPendingOf({ approvalId: 3, message: 'Sent for approval' })).toEqual({
      approvalId: 3,
      message: 'Sent for approval',
    });
    expect(approvalPendingOf({ message: 'Withdraw approved successfully' })).toBeNull();
    expect(approvalPendingOf(undefined)).toBeNull();
  });
});
