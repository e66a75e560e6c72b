import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { brandingFixture, currentUserFixture } from '../../test/fixtures.ts';
import { SecurityPage } from '../account/SecurityPage.tsx';
import { queryKeys } from '../../api/hooks.ts';

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/x',
  qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};
const REAUTH_MESSAGE = 'Please enter your password again to continue.';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

describe('Two-factor sign-in card (Security page)', () => {
  it('is offered to customers, without the role policy, and not to staff signed in as the customer', async () => {
    mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: currentUserFixture(3) };
      if (path === '/security/two-factor') return { body: { enabled: false, required: false, recoveryCodesLeft: 0 } };
      return undefined;
    });
    const first = renderScreen(<SecurityPage />);
    expect((await screen.findByTestId('two-factor-status')).textContent).toBe('Off');
    expect(screen.getByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(screen.queryByText('Require two-factor sign-in for roles')).toBeNull();
    first.unmount();

    mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: { ...currentUserFixture(3), impersonating: true } };
      return undefined;
    });
    const { queryClient } = renderScreen(<SecurityPage />);
    await screen.findByText('Update Password');
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.currentUser)).toBeTruthy());
    expect(screen.queryByText('Two-factor sign-in')).toBeNull();
  });

  it('lets a customer from a session older than 15 minutes set it up after confirming the password', async () => {
    let confirmed = false;
    const calls: Array<[string, string, unknown]> = [];
    mockApi((method, path, body) => {
      calls.push([method, path, body]);
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: currentUserFixture(3) };
      if (path === '/security/two-factor') return { body: { enabled: false, required: false, recoveryCodesLeft: 0 } };
      if (path === '/auth/confirm') {
        confirmed = true;
        return { body: { message: 'Confirmed' } };
      }
      if (path === '/security/two-factor/setup')
        return confirmed ? { body: SETUP } : { status: 401, body: { reauth: true, message: REAUTH_MESSAGE } };
      return undefined;
    });
    renderScreen(<SecurityPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(REAUTH_MESSAGE)).toBeTruthy();
    // Two-factor is not on yet: the password is the only way.
    expect(within(dialog).queryByText('Use a code from my authenticator app')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Password123!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(((await screen.findByTestId('two-factor-secret')) as HTMLInputElement).value).toBe(SETUP.secret);
    expect(calls.filter(([, p]) => p === '/security/two-factor/setup')).toHaveLength(2);
    expect(calls.find(([, p]) => p === '/auth/confirm')?.[2]).toEqual({ password: 'Password123!' });
  });

  it('sets up with QR and code, then shows the recovery codes once; admins see the role policy', async () => {
    let enabled = false;
    const calls: Array<[string, string, unknown]> = [];
    mockApi((method, path, body) => {
      calls.push([method, path, body]);
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: currentUserFixture(1) };
      if (path === '/security/two-factor')
        return { body: { enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 } };
      if (path === '/security/two-factor/setup') return { body: SETUP };
      if (path === '/security/two-factor/enable') {
        enabled = true;
        return { body: { message: 'Two-factor sign-in is on', recoveryCodes: CODES } };
      }
      if (method === 'GET' && path === '/admin/security/two-factor-policy') return { body: { roles: [2] } };
      if (method === 'PUT' && path === '/admin/security/two-factor-policy') return { body: body as object };
      return undefined;
    });
    renderScreen(<SecurityPage />);
    expect((await screen.findByTestId('two-factor-status')).textContent).toBe('Off');
    fireEvent.click(screen.getByRole('button', { name: 'Set up' }));
    expect(((await screen.findByTestId('two-factor-secret')) as HTMLInputElement).value).toBe(SETUP.secret);
    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    await screen.findByText('abcd9-efgh9');
    fireEvent.click(screen.getByLabelText('I have saved these codes'));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('two-factor-status').textContent).toBe('On'));
    expect(screen.getByText('10 recovery codes left')).toBeTruthy();
    expect(calls.find(([, p]) => p === '/security/two-factor/enable')?.[2]).toEqual({ code: '123456' });

    // Policy: the admin saves the roles.
    await screen.findByText('Require two-factor sign-in for roles');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find(([m, p]) => m === 'PUT' && p === '/admin/security/two-factor-policy')?.[2]).toEqual({
        roles: [2],
      }),
    );
  });

  it('offers no turning off when the role requires it', async () => {
    mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: currentUserFixture(2) };
      if (path === '/security/two-factor') return { body: { enabled: true, required: true, recoveryCodesLeft: 7 } };
      return undefined;
    });
    renderScreen(<SecurityPage />);
    await screen.findByText('Your role requires two-factor sign-in, so it cannot be turned off.');
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New recovery codes' })).toBeTruthy();
    expect(screen.queryByText('Require two-factor sign-in for roles')).toBeNull();
  });

  it('turns off with password and code when allowed', async () => {
    let sent: unknown;
    mockApi((method, path, body) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { body: currentUserFixture(4) };
      if (path === '/security/two-factor')
        return { body: { enabled: sent === undefined, required: false, recoveryCodesLeft: 10 } };
      if (path === '/security/two-factor/disable') {
        sent = body;
        return { body: { message: 'Two-factor sign-in is off' } };
      }
      return undefined;
    });
    renderScreen(<SecurityPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const inputs = screen.getAllByLabelText(/Current Password/);
    fireEvent.change(inputs[inputs.length - 1], { target: { value: 'Demo12345!' } });
    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(sent).toEqual({ password: 'Demo12345!', code: '654321' }));
    await waitFor(() => expect(screen.getByTestId('two-factor-status').textContent).toBe('Off'));
  });
});
