import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../ui/data-table/testing.tsx';
import { SessionsCards } from './SessionsCards.tsx';

afterEach(cleanup);

const SESSIONS = {
  data: [
    {
      id: 7,
      device: 'Chrome 131 on Windows 10',
      ip: '10.0.0.1',
      started_at: '2026-11-26T08:00:00.000Z',
      last_seen_at: '2026-11-26T08:10:00.000Z',
      current: true,
      staff: false,
    },
    {
      id: 5,
      device: 'Safari 17 on iOS 17.5',
      ip: '10.0.0.2',
      started_at: '2026-11-25T08:00:00.000Z',
      last_seen_at: '2026-11-25T09:00:00.000Z',
      current: false,
      staff: false,
    },
  ],
};
const SIGN_INS = {
  data: [
    { id: 3, at: '2026-11-26T08:00:00.000Z', ip: '10.0.0.1', device: 'Chrome 131 on Windows 10', result: 'success' },
    {
      id: 2,
      at: '2026-11-26T07:59:00.000Z',
      ip: '10.0.0.1',
      device: 'Chrome 131 on Windows 10',
      result: 'wrong_password',
    },
  ],
};

describe('SessionsCards', () => {
  it('lists the sessions with this device marked, signs another out, and shows the sign-in history', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'DELETE' ? { message: 'Session signed out' } : c.path.endsWith('/sign-ins') ? SIGN_INS : SESSIONS,
    );
    renderWithProviders(<SessionsCards base="/security" own />);
    const mine = await screen.findByTestId('session-7');
    expect(within(mine).getByText('This device')).toBeTruthy();
    expect(within(mine).queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(await screen.findByText('Wrong password')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('session-5')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Session signed out')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/security/sessions/5');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toContain('/security/sessions'),
    );
  });

  it("shows a customer's sessions to staff without sign-out buttons", async () => {
    const { calls } = mockFetch((c) => (c.path.endsWith('/sign-ins') ? SIGN_INS : SESSIONS));
    renderWithProviders(<SessionsCards base="/admin/customers/9" own={false} />);
    await screen.findByTestId('session-5');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
    expect(calls.map((c) => c.path).sort()).toEqual(['/admin/customers/9/sessions', '/admin/customers/9/sign-ins']);
  });
});
