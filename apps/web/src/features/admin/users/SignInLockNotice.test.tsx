import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { SignInLockNotice } from './SignInLockNotice.tsx';

afterEach(cleanup);

describe('SignInLockNotice', () => {
  it('shows a lock with its remaining minutes and clears it', async () => {
    let locked = true;
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        locked = false;
        return { message: 'Sign-in unlocked for max@demo.test' };
      }
      return locked ? { locked: true, minutes: 12 } : { locked: false, minutes: 0 };
    });
    renderWithProviders(<SignInLockNotice userId={7} />);
    expect(await screen.findByText('Too many failed sign-ins. The lock opens by itself in 12 minutes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock now' }));
    expect(await screen.findByText('Sign-in unlocked for max@demo.test')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Sign-in locked')).toBeNull());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /admin/users/7/sign-in-lock',
      'DELETE /admin/users/7/sign-in-lock',
      'GET /admin/users/7/sign-in-lock',
    ]);
  });

  it('shows nothing for an account that is not locked', async () => {
    const { calls } = mockFetch(() => ({ locked: false, minutes: 0 }));
    renderWithProviders(<SignInLockNotice userId={7} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByText('Sign-in locked')).toBeNull();
  });
});
