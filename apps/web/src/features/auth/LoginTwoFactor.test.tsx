import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { brandingFixture } from '../../test/fixtures.ts';
import { LoginPage } from './LoginPage.tsx';

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

function signInWithPassword() {
  fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'manager@demo.test' } });
  fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Demo12345!' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginPage two-factor steps', () => {
  it('asks for the app code after the password, or a recovery code, and only then goes to the dashboard', async () => {
    let signedIn = false;
    const fetchMock = mockApi((method, path, body) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return signedIn ? undefined : { status: 401, body: { message: 'x' } };
      if (method === 'POST' && path === '/auth/login')
        return { body: { message: 'Enter the code', twoFactor: 'code', challenge: 'ch-1' } };
      if (method === 'POST' && path === '/auth/login/two-factor') {
        const b = body as { code?: string; recoveryCode?: string };
        if (b.code === '111111')
          return {
            status: 422,
            body: { message: 'This code is not valid. Check your authenticator app and try again.' },
          };
        signedIn = true;
        return { body: { message: 'Signed in successfully', user: { id: 2, role_id: 2 } } };
      }
      return undefined;
    });
    renderScreen(<LoginPage />);
    signInWithPassword();
    await screen.findByText('Enter the 6-digit code from your authenticator app.');
    const verify = screen.getByRole('button', { name: 'Verify' }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);

    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '11 11 11' } });
    expect((screen.getByTestId('two-factor-code') as HTMLInputElement).value).toBe('111111');
    fireEvent.click(verify);
    await screen.findByText(/code is not valid/);
    expect(screen.queryByText('dashboard page')).toBeNull();

    fireEvent.click(screen.getByText('Use a recovery code'));
    fireEvent.change(screen.getByTestId('two-factor-recovery-code'), { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('dashboard page');
    const last = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/auth/login/two-factor')).at(-1);
    expect(JSON.parse(String(last?.[1]?.body))).toEqual({
      challenge: 'ch-1',
      remember: false,
      recoveryCode: 'abcde-fghjk',
    });
  });

  it('enrols a user whose role requires it: QR and key, code, then the recovery codes until they are confirmed saved', async () => {
    let signedIn = false;
    mockApi((method, path, body) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return signedIn ? undefined : { status: 401, body: { message: 'x' } };
      if (method === 'POST' && path === '/auth/login')
        return { body: { message: 'Set up', twoFactor: 'enrol', challenge: 'ch-2' } };
      if (method === 'POST' && path === '/auth/login/two-factor/setup')
        return { body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrDataUrl: QR } };
      if (method === 'POST' && path === '/auth/login/two-factor') {
        expect(body).toMatchObject({ challenge: 'ch-2', code: '123456' });
        signedIn = true;
        return { body: { message: 'Signed in successfully', user: { id: 2, role_id: 2 }, recoveryCodes: CODES } };
      }
      return undefined;
    });
    renderScreen(<LoginPage />);
    signInWithPassword();
    await screen.findByText('Set up two-factor sign-in');
    expect(((await screen.findByTestId('two-factor-secret')) as HTMLInputElement).value).toBe(
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    expect(screen.getByAltText('QR code for your authenticator app').getAttribute('src')).toBe(QR);
    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on and sign in' }));

    await screen.findByText('abcd0-efgh0');
    expect(screen.getAllByText(/^abcd\d-efgh\d$/)).toHaveLength(10);
    const next = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    expect(screen.queryByText('dashboard page')).toBeNull();
    fireEvent.click(screen.getByLabelText('I have saved these codes'));
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    await screen.findByText('dashboard page');
  });
});
