import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { brandingFixture } from '../../test/fixtures.ts';
import { LoginPage } from './LoginPage.tsx';

function submitButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Sign In' });
}

describe('LoginPage', () => {
  it('keeps Sign In disabled until email and password are both filled', async () => {
    mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { status: 401, body: { message: 'Please sign in to continue.' } };
      return undefined;
    });
    renderScreen(<LoginPage />);
    expect(submitButton().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'client@demo.test' } });
    expect(submitButton().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Demo12345!' } });
    expect(submitButton().disabled).toBe(false);

    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: '' } });
    expect(submitButton().disabled).toBe(true);
  });

  it('also waits for the captcha when its status is on', async () => {
    mockApi((method, path) => {
      if (path === '/settings/branding')
        return { body: brandingFixture({ recaptcha: { status: 'on', siteKey: 'site-key' } }) };
      if (path === '/auth/user') return { status: 401, body: { message: 'Please sign in to continue.' } };
      return undefined;
    });
    // A stand-in for Google's script, so the widget renders without the network.
    const render = vi.fn(() => 1);
    window.grecaptcha = { render, reset: vi.fn() };
    renderScreen(<LoginPage />);
    await screen.findByTestId('recaptcha');
    await waitFor(() =>
      expect(render).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ sitekey: 'site-key' })),
    );
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'client@demo.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Demo12345!' } });
    expect(submitButton().disabled).toBe(true);
  });

  it('goes to the dashboard after a successful sign-in', async () => {
    let signedIn = false;
    const fetchMock = mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return signedIn ? undefined : { status: 401, body: { message: 'x' } };
      if (method === 'POST' && path === '/auth/login') {
        signedIn = true;
        return { body: { message: 'Signed in', user: { id: 7, role_id: 3 } } };
      }
      return undefined;
    });
    renderScreen(<LoginPage />);
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'client@demo.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Demo12345!' } });
    fireEvent.click(submitButton());
    await screen.findByText('dashboard page');
    const loginCall = fetchMock.mock.calls.find(([url]) => String(url).includes('/auth/login'));
    expect(JSON.parse(String(loginCall?.[1]?.body))).toMatchObject({
      email: 'client@demo.test',
      password: 'Demo12345!',
      remember: false,
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
  });
});
