import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../../test/render.tsx';
import { brandingFixture } from '../../../test/fixtures.ts';
import { TwoFactorReset } from './TwoFactorReset.tsx';

describe('TwoFactorReset', () => {
  it('resets the user two-factor sign-in after a confirmation', async () => {
    const fetchMock = mockApi((method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (method === 'DELETE' && path === '/admin/users/12/two-factor')
        return { body: { message: 'Two-factor sign-in was reset for x@example.test' } };
      return undefined;
    });
    renderScreen(<TwoFactorReset userId={12} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset two-factor' }));
    await screen.findByText('Reset two-factor sign-in for this user?');
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    await screen.findByText('Two-factor sign-in was reset for x@example.test');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => String(url).endsWith('/admin/users/12/two-factor') && init?.method === 'DELETE',
        ),
      ).toBe(true),
    );
  });
});
