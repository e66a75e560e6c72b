import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { cspViolations, launchBrowser, newPage, snap } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/** Password of every demo account. */
export const DEMO_PASSWORD = 'Demo12345!';

export interface Journey {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly url: string;
  /** Closes the test's browser context (as a user closing the browser) and opens a fresh one; returns its page. */
  reopen(): Promise<Page>;
}

/**
 * One server (started with `env` added to its environment) and one Chromium per journey file, a
 * fresh browser context (no cookies, no local storage) per test. Read `j.page` and `j.url` inside
 * tests. A failing test leaves a screenshot named FAILED-{test name} in e2e/artifacts.
 */
export function useJourney(env: Record<string, string> = {}): Journey {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let current: { context: BrowserContext; page: Page } | undefined;

  beforeAll(async () => {
    // Both start at once; if one fails, the other is still kept so afterAll can close it.
    const [s, b] = await Promise.allSettled([startServer(env), launchBrowser()]);
    if (s.status === 'fulfilled') server = s.value;
    if (b.status === 'fulfilled') browser = b.value;
    if (s.status === 'rejected') throw s.reason;
    if (b.status === 'rejected') throw b.reason;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    current = await newPage(browser!, server!.url);
  });
  afterEach(async (ctx) => {
    if (current && ctx.task.result?.state === 'fail') {
      await snap(current.page, `FAILED-${ctx.task.name.replace(/[^\w-]+/g, '_').slice(0, 80)}`).catch(() => undefined);
    }
    const blocked = current ? cspViolations(current.context) : [];
    await current?.context.close();
    current = undefined;
    // The app must work within its own Content-Security-Policy: anything the browser blocked fails the journey.
    expect(blocked, 'Content-Security-Policy violations').toEqual([]);
  });

  return {
    get page() {
      if (!current) throw new Error('no page outside a test');
      return current.page;
    },
    get context() {
      if (!current) throw new Error('no context outside a test');
      return current.context;
    },
    get url() {
      if (!server) throw new Error('server not started');
      return server.url;
    },
    async reopen() {
      const blocked = current ? cspViolations(current.context) : [];
      expect(blocked, 'Content-Security-Policy violations').toEqual([]);
      await current?.context.close();
      current = await newPage(browser!, server!.url);
      return current.page;
    },
  };
}

/** The path of the page's current URL (without origin and query). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Waits until the browser is at exactly this path (query string ignored). After a client-side
 * navigation the previous page can still be on screen for a moment: wait for something of the new
 * page before typing into it.
 */
export async function expectPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((u) => u.pathname === path);
  expect(pathOf(page)).toBe(path);
}

/** A toast (Mantine notification) containing the text; waits for it to appear. */
export async function expectToast(page: Page, text: string | RegExp): Promise<Locator> {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  await toast.waitFor();
  return toast;
}

/** Closes all toasts so the next expectToast cannot match an old one. */
export async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('.mantine-Notification-root');
  // A toast may still arrive (a server notification pushed over the websocket), so close what is
  // there on every poll until none is left. Toasts slide while they enter and leave, so no
  // stability wait: a missed click just means it is already going.
  await expect
    .poll(
      async () => {
        for (const close of await toasts.locator('button.mantine-Notification-closeButton').all())
          await close.click({ force: true, timeout: 1_000 }).catch(() => undefined);
        return toasts.count();
      },
      { timeout: 10_000, interval: 250 },
    )
    .toBe(0);
}

/** A Mantine modal (dialog) by its title. */
export function modal(page: Page, title: string | RegExp): Locator {
  return page.getByRole('dialog', { name: title });
}

/** Picks an option of a Mantine Select: opens it (typing first when it is searchable) and clicks the option. */
export async function chooseOption(
  page: Page,
  label: string,
  option: string,
  opts: { type?: string; scope?: Page | Locator } = {},
): Promise<void> {
  const scope = opts.scope ?? page;
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (opts.type !== undefined) await input.fill(opts.type);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => input.inputValue()).toBe(option);
}

// ---------- Public pages ----------

export const signInPage = {
  email: (page: Page) => page.getByRole('textbox', { name: 'Email' }),
  password: (page: Page) => page.getByRole('textbox', { name: 'Password', exact: true }),
  submit: (page: Page) => page.getByRole('button', { name: 'Sign In', exact: true }),

  async open(page: Page): Promise<void> {
    await page.goto('/');
    await signInPage.heading(page).waitFor();
  },

  heading: (page: Page) => page.getByRole('heading', { name: 'Sign In' }),

  /** Fills the form and submits it; does not wait for the outcome. */
  async submitWith(page: Page, email: string, password: string): Promise<void> {
    // After a client-side navigation the previous page may still be on screen for a moment.
    await signInPage.heading(page).waitFor();
    await signInPage.email(page).fill(email);
    await signInPage.password(page).fill(password);
    await signInPage.submit(page).click();
  },
};

/** Signs in through the form and waits for the trading dashboard with its top bar. */
export async function signInAs(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await signInPage.open(page);
  await signInPage.submitWith(page, email, password);
  await expectPath(page, '/dashboard');
  await topBar(page).waitFor();
}

// ---------- Signed-in shells ----------

/** The top bar of the client area and of the back office (the app shell's header). */
export function topBar(page: Page): Locator {
  return page.getByRole('banner');
}

/** Opens the avatar menu of the top bar and returns its dropdown. */
export async function openProfileMenu(page: Page): Promise<Locator> {
  await topBar(page).getByRole('button', { name: 'Profile menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

export async function logOut(page: Page): Promise<void> {
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log Out' }).click();
  await expectPath(page, '/');
}

/** The figures of the active wallet in the client top bar. */
export function topBarStat(page: Page, label: string): Locator {
  return page
    .getByTestId('top-bar-stats')
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('p')
    .nth(1);
}

/** The back office's side menu. */
export function sideMenu(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main menu' });
}

/** The back office's page heading. */
export function adminTitle(page: Page): Locator {
  return page.getByTestId('page-title');
}

/** Switches the interface language with the top-right language menu. */
export async function chooseLanguage(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^(Language|Idioma|Langue)$/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

// ---------- Back-office data table ----------

export const dataTable = {
  /** Body rows of the table (empty-state and loading rows excluded). */
  rows: (page: Page) => page.locator('table tbody tr').filter({ hasNot: page.locator('td[colspan]') }),
  row: (page: Page, text: string | RegExp) => dataTable.rows(page).filter({ hasText: text }),
  search: (page: Page) => page.getByRole('textbox', { name: 'Search' }),
  total: (page: Page) => page.getByTestId('table-total'),
};
