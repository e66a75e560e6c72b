import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { brandingFixture, currentUserFixture } from '../../test/fixtures.ts';
import { ProfilePage } from './ProfilePage.tsx';

function api() {
  return mockApi((method, path) => {
    if (path === '/settings/branding') return { body: brandingFixture() };
    if (path === '/auth/user') return { body: currentUserFixture() };
    if (path === '/countries')
      return { body: [{ name: { common: 'United Kingdom' } }, { name: { common: 'France' } }] };
    if (method === 'PUT' && path === '/profile/me') return { body: { message: 'Profile updated.' } };
    return undefined;
  });
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('ProfilePage', () => {
  it('shows the email masked and read-only, the phone in full', async () => {
    api();
    renderScreen(<ProfilePage />);
    await waitFor(() => expect(input('profile-email').value).toBe('chnt****@demo.test'));
    expect(input('profile-email').disabled).toBe(true);
    expect(input('profile-phone').value).toBe('+44 20 7946 0103');
    expect(input('profile-phone').disabled).toBe(false);
  });

  it('masks and locks the phone in retail-agent mode and does not send it', async () => {
    localStorage.setItem('retAgent', '1');
    const fetchMock = api();
    renderScreen(<ProfilePage />);
    await waitFor(() => expect(input('profile-phone').value).toBe('******03'));
    expect(input('profile-phone').disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated.');
    const call = fetchMock.mock.calls.find(
      ([url, init]) => String(url).includes('/profile/me') && init?.method === 'PUT',
    );
    const sent = JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
    expect(sent).not.toHaveProperty('phone');
    expect(sent).toMatchObject({ fullName: 'Chris Client', country: 'United Kingdom', birthDate: '1990-04-12' });
  });
});
