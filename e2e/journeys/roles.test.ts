import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import {
  adminTitle,
  expectPath,
  expectToast,
  openProfileMenu,
  pathOf,
  sideMenu,
  signInAs,
  signInPage,
  topBar,
  useJourney,
} from '../support/pages.ts';

const SHORTCUT_LABELS = ['Admin', 'Manager', 'Affiliate', 'Agent'];

interface StaffCase {
  email: string;
  shortcut: string;
  screen: string;
  title: string;
  /** The side-menu item highlighted on that screen. */
  active: string;
  /** Side-menu items this role must see, and ones it must not. */
  sees: string[];
  doesNotSee: string[];
}

const staff: StaffCase[] = [
  {
    email: 'admin@demo.test',
    shortcut: 'Admin',
    screen: '/admin',
    title: 'Dashboard',
    active: 'Dashboard',
    sees: ['Admin & Staffs', 'Mail Outbox', 'Site Settings'],
    doesNotSee: ['API Key'],
  },
  {
    email: 'manager@demo.test',
    shortcut: 'Manager',
    screen: '/admin/trades/all',
    title: 'All Trades',
    active: 'Trades',
    sees: ['Trades', 'Customers'],
    doesNotSee: ['Admin & Staffs', 'Site Settings'],
  },
  {
    email: 'affiliate@demo.test',
    shortcut: 'Affiliate',
    screen: '/affiliate',
    title: 'Leads',
    active: 'Leads',
    sees: ['Leads', 'API Key'],
    doesNotSee: ['Admin & Staffs', 'Trades'],
  },
  {
    email: 'agent@demo.test',
    shortcut: 'Agent',
    screen: '/admin/crm/sales/all',
    title: 'Sales',
    active: 'Sales',
    sees: ['Sales', 'Promo Code'],
    doesNotSee: ['Admin & Staffs', 'Retention'],
  },
  {
    email: 'retention@demo.test',
    shortcut: 'Agent',
    screen: '/admin/crm/retention',
    title: 'Retention',
    active: 'Retention',
    sees: ['Retention', 'Promo Code'],
    doesNotSee: ['Admin & Staffs', 'Sales'],
  },
];

describe('roles: sign-in, top bar and back-office access', () => {
  const j = useJourney();

  it('the client lands on the dashboard with no back-office shortcut', async () => {
    const { page } = j;
    await signInAs(page, 'client@demo.test');
    const bar = topBar(page);
    await expect.poll(() => bar.getByText('Balance', { exact: true }).isVisible()).toBe(true);
    for (const label of SHORTCUT_LABELS)
      expect(await bar.getByRole('link', { name: label, exact: true }).count()).toBe(0);
    await snap(page, 'roles-client-top-bar');

    const menu = await openProfileMenu(page);
    await menu.getByText('Signed in as client@demo.test').waitFor();
    await page.keyboard.press('Escape');

    // Customers have no back office: /admin sends them home.
    await page.goto('/admin');
    await expectPath(page, '/dashboard');
  });

  it.each(staff)('$email reaches $screen with the $shortcut shortcut', async (c) => {
    const { page } = j;
    await signInAs(page, c.email);

    const menu = await openProfileMenu(page);
    await menu.getByText(`Signed in as ${c.email}`).waitFor();
    await page.keyboard.press('Escape');

    const shortcuts = topBar(page).getByRole('link', { name: c.shortcut, exact: true });
    expect(await shortcuts.count()).toBe(1);
    for (const other of SHORTCUT_LABELS.filter((l) => l !== c.shortcut))
      expect(await topBar(page).getByRole('link', { name: other, exact: true }).count()).toBe(0);

    await shortcuts.click();
    await expectPath(page, c.screen);
    // Inside the admin shell: its side menu and the screen's heading.
    const nav = sideMenu(page);
    await nav.waitFor();
    await expect.poll(() => adminTitle(page).textContent()).toBe(c.title);
    for (const item of c.sees) await nav.getByRole('link', { name: item, exact: true }).waitFor();
    for (const item of c.doesNotSee) expect(await nav.getByRole('link', { name: item, exact: true }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: c.active, exact: true }).getAttribute('data-active')).toBe('true');
    if (c.shortcut === 'Admin') await snap(page, 'roles-admin-shell');
  });

  it('a manager opening /admin/users is told they have no access', async () => {
    const { page } = j;
    await signInAs(page, 'manager@demo.test');
    await page.goto('/admin/users');
    await page.getByText('You do not have access to this page.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await snap(page, 'roles-manager-denied');
  });

  it('a signed-out visitor opening /profile is sent to the sign-in page', async () => {
    const { page } = j;
    await page.goto('/profile');
    await expectPath(page, '/');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
  });

  it('a wrong password shows "Invalid Credentials" and stays on the sign-in page', async () => {
    const { page } = j;
    await signInPage.open(page);
    await signInPage.submitWith(page, 'client@demo.test', 'Wrong-password-1');
    await expectToast(page, 'Invalid Credentials');
    expect(pathOf(page)).toBe('/');
    await snap(page, 'roles-invalid-credentials');
  });
});
