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

describe('Back-office lists at 1440 × 900', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('show status and actions without scrolling, and open trades with their floating P/L', async () => {
    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, 'admin@demo.test');
    for (const [path, title] of [
      ['/admin/deposits', 'Deposits'],
      ['/admin/trades/all', 'All Trades'],
    ]) {
      await page.goto(path);
      await expect.poll(() => adminTitle(page).textContent()).toBe(title);
      await dataTable.rows(page).first().waitFor();
      for (const h of ['STATUS', 'ACTIONS'])
        expect(await headerFit(page, h), `${path} ${h}`).toEqual({ inWindow: true, inBox: true });
    }
    await page.goto('/admin/trades/open');
    const pl = page.locator('[data-live-pl]').first();
    await expect.poll(async () => Number.isFinite(Number(await pl.textContent()))).toBe(true);
    await snap(page, 'admin-lists-fit-open-trades');
  });
});
