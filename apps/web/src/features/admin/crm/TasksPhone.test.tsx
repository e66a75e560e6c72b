import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { TaskItem } from '@platform/domain';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { TasksPage } from './TasksPage.tsx';

/** The phone query answers `matches`; other queries never match. */
const phone = (matches: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
afterEach(() => vi.unstubAllGlobals());

const TASK: TaskItem = {
  id: 7,
  kind: 'callback',
  note: 'Ask about funding and the documents still missing for the KYC check',
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

describe('My Tasks on a phone', () => {
  it('shows each task as a card: who, state, kind, when, whose, the whole note and Mark done', async () => {
    phone(true);
    const { calls } = mockFetch((c) => {
      if (c.path === '/auth/user') return currentUser(2, 2);
      if (c.method === 'POST') return { message: 'Task marked done', task: { ...TASK, state: 'done' } };
      return { data: [TASK], meta: { total: 1, per_page: 15, page: 1 } };
    });
    renderWithProviders(<TasksPage />);
    const name = await screen.findByText('Hannah Brown');
    expect(name.closest('tr')).toBeNull();
    expect(screen.getByText('missed')).toBeTruthy();
    expect(screen.getByText(/Call-back · .*2026.* · Sam Sales/)).toBeTruthy();
    expect(screen.getByText(TASK.note as string)).toBeTruthy();
    // The five tabs stay on one line (they scroll sideways).
    expect(screen.getByRole('tablist').style.flexWrap).toBe('nowrap');
    fireEvent.click(screen.getByRole('button', { name: 'Mark done' }));
    expect(await screen.findByText('Task marked done')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/admin/crm/tasks/7/done')).toBe(true);
  });
});
