import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/** Debian's Chromium, headless, with the flags this network needs (no background calls to outside hosts). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const violations = new WeakMap<BrowserContext, string[]>();

/** Content-Security-Policy violations Chromium reported on the context's pages (a blocked script, style or frame). */
export const cspViolations = (context: BrowserContext): string[] => violations.get(context) ?? [];

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1366, height: 850 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  const seen: string[] = [];
  violations.set(context, seen);
  context.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text()))
      seen.push(`${msg.location().url}: ${msg.text()}`);
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Saves a screenshot under e2e/artifacts (not committed) for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // Finite CSS transitions (modals, toasts sliding in) are finished first, so the picture shows the settled screen.
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}
