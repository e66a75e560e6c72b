import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, expectToast, modal, signInAs, useJourney } from '../support/pages.ts';

describe('Trades in the back office', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('closes an open trade, edits a closed one and deletes it', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');

    // --- Open trades of the demo customers: close one at the server's price ---
    await page.goto('/admin/trades/open');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Open Trades');
    const first = dataTable.rows(page).first();
    await first.getByRole('button', { name: 'Close' }).waitFor();
    const id = (await first.getByRole('cell').first().textContent())!.trim();
    await snap(page, 'admin-trades-open');
    await first.getByRole('button', { name: 'Close' }).click();
    await page.getByText('Are you sure to close this order?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'Order closed successfully');

    // --- It is now among the closed trades: edit its close rate ---
    await page.goto('/admin/trades/closed');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Closed Trades');
    const row = dataTable.rows(page).filter({ has: page.getByRole('cell', { name: id, exact: true }) });
    await row.getByText('Closed').waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = modal(page, 'Edit Order');
    const close = edit.getByRole('textbox', { name: 'Close Rate' });
    const rate = Number(await close.inputValue());
    await close.fill(String(Number((rate * 1.001).toFixed(5))));
    await edit.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Order updated successfully');
    await snap(page, 'admin-trades-closed');

    // --- Delete voids it: gone from the list ---
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Are you sure to delete this order?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'Order deleted successfully');
    await expect.poll(() => row.count()).toBe(0);
  });
});
