import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ApiError, apiPost, apiPut } from '../../api/client.ts';
import { mockFetch, renderWithProviders } from '../../ui/data-table/testing.tsx';
import { ReauthDialog } from './ReauthDialog.tsx';

afterEach(cleanup);

const REAUTH = { status: 401, body: { reauth: true, message: 'Please enter your password again to continue.' } };

describe('ReauthDialog', () => {
  it('asks for the password when a call needs it, confirms, and sends the call again', async () => {
    let confirmed = false;
    const { calls } = mockFetch((c) => {
      if (c.path === '/security/two-factor') return { enabled: false, required: false, recoveryCodesLeft: 0 };
      if (c.path === '/auth/confirm') {
        if ((c.body as { password: string }).password !== 'right-one')
          return {
            status: 400,
            body: { message: 'The password is not right.', errors: { password: 'The password is not right.' } },
          };
        confirmed = true;
        return { message: 'Confirmed' };
      }
      return confirmed ? { message: 'Withdrawal requested' } : REAUTH;
    });
    renderWithProviders(<ReauthDialog />);
    const pending = apiPost<{ message: string }>('/withdraws/bank', { amount: '10' });
    const input = await screen.findByLabelText('Password');
    fireEvent.change(input, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The password is not right.')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'right-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(pending).resolves.toEqual({ message: 'Withdrawal requested' });
    expect(calls.filter((c) => c.path === '/withdraws/bank')).toHaveLength(2);
    // Without two-factor sign-in there is no code to offer.
    expect(screen.queryByText('Use a code from my authenticator app')).toBeNull();
  });

  it('fails the call with the server message when the person cancels', async () => {
    mockFetch((c) => (c.path === '/security/two-factor' ? { status: 403, body: { message: 'Forbidden' } } : REAUTH));
    renderWithProviders(<ReauthDialog />);
    const pending = apiPost('/withdraws/bank', { amount: '10' });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    await waitFor(() => expect(screen.queryByLabelText('Password')).toBeNull());
  });

  it('lets a user with two-factor sign-in confirm with a code from the app instead', async () => {
    let confirmed = false;
    const { calls } = mockFetch((c) => {
      if (c.path === '/security/two-factor') return { enabled: true, required: false, recoveryCodesLeft: 10 };
      if (c.path === '/auth/confirm') {
        if ((c.body as { code?: string }).code !== '654321')
          return {
            status: 400,
            body: {
              message: 'The code is not right.',
              errors: { code: 'The code is not right. Try the current one.' },
            },
          };
        confirmed = true;
        return { message: 'Confirmed' };
      }
      return confirmed ? { message: 'Password changed successfully' } : REAUTH;
    });
    renderWithProviders(<ReauthDialog />);
    const pending = apiPut<{ message: string }>('/security/password', { currentPassword: 'a', newPassword: 'b' });
    fireEvent.click(await screen.findByRole('button', { name: 'Use a code from my authenticator app' }));
    const code = await screen.findByLabelText(/Code from the app/);
    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The code is not right. Try the current one.')).toBeTruthy();
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(pending).resolves.toEqual({ message: 'Password changed successfully' });
    expect(calls.filter((c) => c.path === '/auth/confirm').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '654321' },
    ]);
    expect(calls.filter((c) => c.path === '/security/password')).toHaveLength(2);
  });
});
