import { afterEach, describe, expect, it } from 'vitest';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LeadItem, TaskItem } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { LeadsPage } from './LeadsPage.tsx';
import { leadItem } from './testing.ts';
import { TasksPage } from './TasksPage.tsx';

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

const LEAD = leadItem({ next_task: null });

const STATUSES = {
  data: [
    { id: 1, status: 'New', is_default: true, leads: 3 },
    { id: 2, status: 'Interested', is_default: false, leads: 0 },
    { id: 3, status: 'No Answer', is_default: false, leads: 0 },
  ],
  meta: { total: 3, per_page: 999, page: 1 },
};

function serve(rows: LeadItem[], extra: (c: FetchCall) => unknown = () => undefined) {
  return mockFetch((c) => {
    const e = extra(c);
    if (e !== undefined) return e as never;
    if (c.path === '/auth/user') return currentUser(5, 5);
    if (c.path === '/admin/crm-config/sales-statuses/api') return STATUSES;
    if (c.path === '/admin/crm/voiso/agents')
      return {
        configured: true,
        message: null,
        data: [{ email: 'ada@demo.test', ext: '1005', status: 'available' }],
        me: { email: 'ada@demo.test', ext: '1005', status: 'available' },
      };
    if (c.path === '/admin/crm/voiso/startCall') return { message: 'Call started successfully', call_id: 'c-1' };
    if (c.method === 'PUT' && c.path === '/admin/leads/41/status')
      return { message: 'ok', lead_status: (c.body as { status: string }).status, call_id: 3 };
    if (c.method === 'POST' && c.path === '/admin/crm/tasks') return { message: 'ok', task: TASK };
    return { data: rows, meta: { total: rows.length, per_page: 15, page: 1 } };
  });
}

const TASK: TaskItem = {
  id: 7,
  kind: 'callback',
  note: 'Ask about funding',
  due_at: '2026-05-02T10:00:00Z',
  done_at: null,
  notified_at: null,
  created_at: '2026-05-01T10:00:00Z',
  state: 'missed',
  owner: { id: 5, full_name: 'Sam Sales' },
  done_by: null,
  lead: { id: 41, name: 'Hannah Brown' },
  customer: null,
};

describe('lead rows for the sales floor', () => {
  it("opens the outcome menu after a call from the row; one click records the lead's status", async () => {
    const { calls } = serve([LEAD]);
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    await waitFor(() =>
      expect((within(row).getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(within(row).getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('Call started successfully')).toBeTruthy();
    // The menu of statuses is open by itself: the outcome is the next click.
    expect(await screen.findByText('Call outcome')).toBeTruthy();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'No Answer', hidden: true }));
    expect(await screen.findByText('Lead status updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/admin/leads/41/status')?.body).toEqual({
      status: 'No Answer',
    });
  });

  it('schedules a call-back from the row and shows the next task on it, red once missed', async () => {
    const { calls } = serve([
      {
        ...LEAD,
        next_task: { id: 7, kind: 'callback', due_at: '2026-05-02T10:00:00Z', note: 'Ask', owner: 'Sam Sales' },
      },
    ]);
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    expect(screen.getByRole('columnheader', { name: 'NEXT TASK' })).toBeTruthy();
    const next = within(row).getByTestId('next-task');
    expect(
      within(next)
        .getByTitle(/02\/05\/2026/)
        .getAttribute('style') ?? '',
    ).toContain('red');

    fireEvent.click(within(row).getByRole('button', { name: 'Schedule call-back' }));
    expect(await screen.findByText('Schedule for Hannah Brown')).toBeTruthy();
    const before = Date.now();
    fireEvent.click(screen.getByRole('button', { name: 'In 15 minutes' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: 'Ask about funding' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Task scheduled successfully')).toBeTruthy();
    const body = calls.find((c) => c.method === 'POST' && c.path === '/admin/crm/tasks')?.body as Record<
      string,
      string
    >;
    expect(body).toMatchObject({ leadId: 41, kind: 'callback', note: 'Ask about funding' });
    const due = Date.parse(body.dueAt);
    // The picker works in whole minutes.
    expect(due).toBeGreaterThan(before + 13 * 60_000);
    expect(due).toBeLessThan(before + 16 * 60_000);
  });

  it('shows the error of a refused call-back in the dialog', async () => {
    serve([LEAD], (c) =>
      c.method === 'POST' && c.path === '/admin/crm/tasks'
        ? { status: 400, body: { message: 'Choose a time that has not passed.' } }
        : undefined,
    );
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const row = (await screen.findByText('Hannah')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Schedule call-back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Choose a time that has not passed.')).toBeTruthy();
  });
});

describe('My Tasks', () => {
  it("lists the viewer's tasks by tab in their time zone and marks one done", async () => {
    const { calls } = mockFetch((c) => {
      if (c.path === '/auth/user') return currentUser(5, 5);
      if (c.method === 'POST' && c.path === '/admin/crm/tasks/7/done')
        return { message: 'Task marked done', task: { ...TASK, state: 'done' } };
      return { data: [TASK], meta: { total: 1, per_page: 15, page: 1 } };
    });
    renderWithProviders(<TasksPage />);
    const row = (await screen.findByText('Hannah Brown')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Ask about funding')).toBeTruthy();
    expect(within(row).getByText('missed')).toBeTruthy();
    const first = calls.find((c) => c.path === '/admin/crm/tasks');
    expect(first?.query.get('view')).toBe('today');
    expect(first?.query.get('tz')).toBe(String(new Date().getTimezoneOffset()));
    // Agents see no owner column: the tasks are theirs.
    expect(screen.queryByRole('columnheader', { name: 'OWNER' })).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Mark done' }));
    expect(await screen.findByText('Task marked done')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/admin/crm/tasks/7/done')).toBe(true);

    fireEvent.click(screen.getByRole('tab', { name: 'Overdue' }));
    await waitFor(() => expect(calls.some((c) => c.query.get('view') === 'overdue')).toBe(true));
  });
});
