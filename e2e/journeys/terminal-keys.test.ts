import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { snap } from '../support/browser.ts';
import { expectToast, modal, signInAs, useJourney } from '../support/pages.ts';
import { dashboard, positionCell, type OrderJson } from '../support/trading.ts';

const CLIENT = 'client@demo.test';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A deal's swap or commission as the terminal shows it: the wallet's dollars to 2 decimals, negative when paid. */
const dollars = (value: string) => {
  const n = Number(value);
  return `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(2)}`;
};

/** The instrument selected in the forex tab (the one on the chart), by its catalogue name. */
const selectedForex = async (page: Page) =>
  (await dashboard.marketPanel(page, 'forex').locator('tr[aria-current="true"]').getAttribute('data-testid'))?.replace(
    'instrument-',
    '',
  );

/** Whether a table fits its box: no sideways scrolling. */
const fits = (table: Locator) =>
  table.evaluate((el) => {
    const box = el.closest('.mantine-Table-scrollContainer') ?? el.parentElement;
    return box !== null && box.scrollWidth <= box.clientWidth + 1;
  });

describe('terminal keyboard and tables', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('places a market order from F9, reads its ticket, live price, swap and commission, and lists the keys with "?"', async () => {
    const { page } = j;
    await page.setViewportSize(DESKTOP);
    await signInAs(page, CLIENT);
    await dashboard.instrumentRow(page, 'USD_CNH').waitFor();

    // Typing in the search box is typing: no dialog opens.
    await dashboard.search(page).fill('b');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await dashboard.search(page).fill('');
    await dashboard.search(page).blur();

    // Down moves the selection from USD/CNH (the chart's first instrument) to the next one of the list: EUR/USD.
    await expect.poll(() => selectedForex(page)).toBe('USD_CNH');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => selectedForex(page)).toBe('EUR_USD');

    // F9: a new order for it, on the buy side; Esc closes the dialog, S opens the sell side.
    await page.keyboard.press('F9');
    let dialog = modal(page, /Buy Order/);
    await dialog.getByRole('button', { name: 'Buy', exact: true }).waitFor();
    expect(await dialog.textContent()).toContain('EUR/USD');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('s');
    await modal(page, /Sell Order/)
      .getByRole('button', { name: 'Sell', exact: true })
      .waitFor();
    await page.keyboard.press('Escape');
    await modal(page, /Sell Order/).waitFor({ state: 'hidden' });

    await page.keyboard.press('F9');
    dialog = modal(page, /Buy Order/);
    const buy = dialog.getByRole('button', { name: 'Buy', exact: true });
    await buy.waitFor();
    await snap(page, 'terminal-keys-1-f9-order');
    const placed = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/dashboard/orders' && r.request().method() === 'POST',
    );
    await buy.click();
    const res = await placed;
    expect(res.status()).toBe(200);
    const order = ((await res.json()) as { order: OrderJson & { swap: string; commission: string } }).order;
    expect(order).toMatchObject({ type: 'buy', instrument: 'EUR_USD' });
    await expectToast(page, 'Order Placed Successfully');
    await dialog.waitFor({ state: 'hidden' });

    // The new position in Opened Positions: its ticket, size in lots (forex trades in lots), live price and charges.
    await dashboard.position(page, order.id).waitFor();
    await expect.poll(async () => (await positionCell(page, order.id, 'Ticket')).textContent()).toBe(String(order.id));
    await expect.poll(async () => (await positionCell(page, order.id, 'Amount')).textContent()).toBe('0.01 lot');
    const current = await positionCell(page, order.id, 'Current Price');
    await expect.poll(() => current.textContent()).toMatch(/^\d\.\d{5}$/);
    const first = await current.textContent();
    await expect.poll(() => current.textContent(), { timeout: 15_000 }).not.toBe(first);
    await expect.poll(async () => (await positionCell(page, order.id, 'Swap')).textContent()).toBe(dollars(order.swap));
    await expect
      .poll(async () => (await positionCell(page, order.id, 'Commission')).textContent())
      .toBe(dollars(order.commission));
    await expect.poll(async () => (await positionCell(page, order.id, 'P/L')).textContent()).toMatch(/^-?\$\d/);
    const table = page.locator('table').filter({ has: dashboard.position(page, order.id) });
    expect(await fits(table)).toBe(true);
    await snap(page, 'terminal-keys-2-position-1440');

    // The column chooser hides Swap; the choice holds after a reload.
    await table.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'Swap' }).uncheck();
    await expect.poll(() => table.locator('thead th').allTextContents()).not.toContain('Swap');
    await page.reload();
    await dashboard.position(page, order.id).waitFor();
    expect(
      await page
        .locator('table')
        .filter({ has: dashboard.position(page, order.id) })
        .locator('thead th')
        .allTextContents(),
    ).not.toContain('Swap');

    // "?" lists the keys.
    await page.keyboard.press('Shift+?');
    const keys = modal(page, 'Keyboard shortcuts');
    await keys.waitFor();
    for (const text of ['F9', 'New order for the selected instrument', 'Buy the selected instrument', 'Esc'])
      expect(await keys.textContent()).toContain(text);
    await snap(page, 'terminal-keys-3-shortcuts');
    await page.keyboard.press('Escape');
    await keys.waitFor({ state: 'hidden' });

    // A phone keeps cards: ticket, current price, swap and commission within the screen.
    await page.setViewportSize(PHONE);
    const card = dashboard.position(page, order.id);
    await card.scrollIntoViewIfNeeded();
    expect(await card.getByTestId(`ticket-${order.id}`).textContent()).toBe(`#${order.id}`);
    await expect.poll(() => card.getByTestId(`current-${order.id}`).textContent()).toMatch(/^\d\.\d{5}$/);
    expect(await card.getByTestId(`swap-${order.id}`).textContent()).toBe(dollars(order.swap));
    expect(await card.getByTestId(`commission-${order.id}`).textContent()).toBe(dollars(order.commission));
    for (const part of [card.getByTestId(`pl-${order.id}`), card.getByRole('button', { name: 'Close', exact: true })]) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await snap(page, 'terminal-keys-4-position-390');
  });
});
