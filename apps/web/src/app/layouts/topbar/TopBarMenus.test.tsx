import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { brandingFixture, currentUserFixture } from '../../../test/fixtures.ts';
import { mockApi, renderScreen } from '../../../test/render.tsx';

vi.mock('../../../api/realtime.ts', async () => (await import('../../../features/trading/testing.ts')).realtimeModule);
const { TopBar } = await import('./TopBar.tsx');

function show() {
  mockApi((_m, path) => {
    if (path === '/settings/branding') return { body: brandingFixture() };
    if (path === '/auth/user') return { body: currentUserFixture() };
    if (path === '/notifications') return { body: { data: [], unread: 2 } };
    if (path === '/dashboard/open-orders') return { body: [] };
    return { body: [] };
  });
  renderScreen(<TopBar current={currentUserFixture()} />);
}

describe('the top bar’s menus', () => {
  it('shows every button at once and no menu until one is reached for', async () => {
    show();
    expect(screen.getByRole('button', { name: 'Profile menu' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Language' }).textContent).toBe('EN');
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Demo\s*USD/, hidden: true }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens the profile menu on the first click, once its code has arrived', async () => {
    show();
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Profile menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeTruthy();
    expect(screen.getByText('Signed in as chris.client@demo.test')).toBeTruthy();
  });

  it('opens the wallet switcher, the language menu and the notifications on their first click', async () => {
    show();
    fireEvent.click(screen.getAllByRole('button', { name: /Demo\s*USD/, hidden: true })[0]);
    expect(await screen.findByText('Switch account')).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /Real/, hidden: true }).textContent).toContain('USD · $4,750.00');

    fireEvent.click(screen.getByRole('button', { name: 'Language' }));
    expect(await screen.findByRole('menuitem', { name: 'English', hidden: true })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
  });
});
