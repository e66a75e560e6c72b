import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, signInAs, useJourney } from '../support/pages.ts';

/** Where a column header sits against the window and against its table's own scroll box. */
function headerFit(page: Page, name: string) {
  return page.getByRole('columnheader', { name, exact: true }).evaluate((th) => {
    const r = th.getBoundingClientRect();
    let box = th.parentElement;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement;
    const b = (box ?? document.documentElement).getBoundingClientRect();
    return { inWindow: r.left >= 0 && r.right <= window.innerWidth, inBox: r.left >= b.left && r.right <= b.right + 1 };
  });
}

/**
 * How far the last column before the sticky actions runs under them (0 or less: nothing hidden): its header, and what
 * the first row's cells hold (a cell's buttons can overflow a column the header fits in).
 */
function underActions(page: Page) {
  return page.getByRole('columnheader', { name: 'ACTIONS', exact: true }).evaluate((actions) => {
    const left = actions.getBoundingClientRect().left;
    const others = [...(actions.parentElement?.children ?? [])].filter((th) => th !== actions);
    const row = actions.closest('table')?.querySelector('tbody tr');
    const cells = [...(row?.children ?? [])].slice(0, -1).flatMap((td) => [...td.querySelectorAll('*')]);
    return Math.max(...[...others, ...cells].map((el) => el.getBoundingClientRect().right - left));
  });
}

describe('Back-office lists at 1440 × 900', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('show status and actions without scrolling, and open trades with their floating P/L', async () => {
    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, 'admin@demo.test');
    // Every column in view beside the sticky actions: the money lists, trades, customers, KYC and the CRM's customer
    // lists (two-line rows with the customer's figures).
    for (const [path, title, last] of [
      ['/admin/deposits', 'Deposits', 'STATUS'],
      ['/admin/trades/all', 'All Trades', 'STATUS'],
      ['/admin/trades/open', 'Open Trades', 'STATUS'],
      ['/admin/customers/all', 'All Customers', 'STATUS'],
      ['/admin/kyc', 'KYC', 'STATUS'],
      ['/admin/crm/clients', 'Clients', 'SALE AGENT'],
      ['/admin/crm/retention', 'Retention', 'RETENTION AGENT'],
    ]) {
      await page.goto(path);
      await expect.poll(() => adminTitle(page).textContent()).toBe(title);
      await dataTable.rows(page).first().waitFor();
      for (const h of [last, 'ACTIONS'])
        expect(await headerFit(page, h), `${path} ${h}`).toEqual({ inWindow: true, inBox: true });
      expect(await underActions(page), `${path}: a column under the actions`).toBeLessThanOrEqual(1);
    }
    await snap(page, 'admin-lists-fit-crm-retention');

    await page.goto('/admin/trades/open');
    const pl = page.locator('[data-live-pl]').first();
    await expect.poll(async () => Number.isFinite(Number(await pl.textContent()))).toBe(true);
    await snap(page, 'admin-lists-fit-open-trades');
  });
});
