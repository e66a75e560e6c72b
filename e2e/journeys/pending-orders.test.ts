import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { chooseOption, dismissToasts, expectToast, modal, signInAs, useJourney } from '../support/pages.ts';
import { dashboard, placeOrderFromList, positionCell, quoteOf, type OrderJson } from '../support/trading.ts';

const CLIENT = 'client@demo.test';
const eurUsd = (rate: string | number) => Number(rate).toFixed(5);

/** Sets EUR/USD's next quote through the simulated feed, as staff demonstrating a trigger would. */
async function setQuote(admin: ApiSession, bid: number, ask: number): Promise<void> {
  const r = await admin.call('POST', '/admin/simulator/price', {
    instrument: 'EUR_USD',
    bid: eurUsd(bid),
    ask: eurUsd(ask),
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
}

/** The ids of the lines drawn on the chart (entry-, loss-, profit-, pending-{id}). */
const chartLines = async (page: Page) =>
  ((await dashboard.chart(page).getAttribute('data-lines')) ?? '').split(' ').filter(Boolean);

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

/** The open positions of the signed-in browser, read with its own session. */
async function openPositions(page: Page, url: string): Promise<Array<OrderJson & { trade_amount: string }>> {
  const r = await page.request.get(`${url}/api/dashboard/orders?status=open`);
  return ((await r.json()) as { data: Array<OrderJson & { trade_amount: string }> }).data;
}

/** The pixel row of a chart line, found by moving the pointer down the chart until the chart says it is over it. */
async function lineRow(page: Page, lineId: string): Promise<{ x: number; y: number }> {
  const chart = dashboard.chart(page);
  const box = (await chart.boundingBox())!;
  const pane = chart.locator('> div').first();
  const x = box.x + box.width / 3;
  for (let y = box.y + 2; y < box.y + box.height - 28; y += 2) {
    await page.mouse.move(x, y);
    if ((await pane.getAttribute('data-hover-line')) === lineId) return { x, y };
  }
  throw new Error(`line ${lineId} not found on the chart`);
}

describe('pending orders, partial close, alerts and one-click trading in the terminal', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('places a Buy Limit from the dialog, sees it wait and fill when the price reaches it, then closes part of it', async () => {
    const { page } = j;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    await signInAs(page, CLIENT);
    await page.getByRole('button', { name: 'Show EUR/USD on the chart' }).first().click();

    await page.getByRole('button', { name: 'Buy EUR/USD', exact: true }).first().click();
    const dialog = modal(page, /Buy Order/);
    await dialog.getByRole('button', { name: 'Buy', exact: true }).waitFor();
    await chooseOption(page, 'Order type', 'Buy Limit', { scope: dialog });
    await chooseOption(page, 'Select lot size', 'Mini lot (0.1)', { scope: dialog });
    // Prefilled under the ask, where the server accepts a Buy Limit.
    const price = Number(await dialog.getByRole('textbox', { name: 'Order price' }).inputValue());
    const { ask } = await quoteOf(admin, 'EUR_USD');
    expect(price).toBeLessThan(ask);
    await snap(page, 'pending-1-buy-limit-dialog');
    const placed = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/dashboard/orders' && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Buy Limit', exact: true }).click();
    const res = await placed;
    expect(res.status()).toBe(201);
    const pending = (await res.json()) as { id: number; status: string; price: string };
    expect(pending.status).toBe('pending');
    expect(Number(pending.price)).toBe(price);
    await expectToast(page, 'Order Placed Successfully');

    // Waiting: in Pending Orders and on the chart.
    await tab(page, 'Pending Orders').click();
    const row = page.getByTestId(`pending-${pending.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Buy Limit');
    expect(await row.textContent()).toContain('PENDING');
    await expect.poll(() => chartLines(page)).toContain(`pending-${pending.id}`);
    await snap(page, 'pending-2-waiting');

    // The ask falls to the limit: the server fills it, with no help from the browser.
    await dismissToasts(page);
    await setQuote(admin, price - 0.0003, price - 0.0001);
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => chartLines(page)).not.toContain(`pending-${pending.id}`);
    await tab(page, 'History').click();
    const filled = page.getByTestId(`history-order-${pending.id}`);
    await filled.waitFor();
    expect(await filled.textContent()).toContain('FILLED');
    const position = (await openPositions(page, j.url)).find((o) => o.instrument === 'EUR_USD');
    expect(position).toBeDefined();
    expect(Number(position!.trade_amount)).toBe(10000);
    await expect.poll(() => chartLines(page)).toContain(`entry-${position!.id}`);

    // Close 4,000 of the 10,000: the rest stays open, the closed part is in the history.
    await tab(page, 'Opened Positions').click();
    await dashboard.position(page, position!.id).getByRole('button', { name: 'Partial Close' }).click();
    const part = modal(page, /Partial Close/);
    await part.getByRole('textbox', { name: 'Amount to close' }).fill('4000');
    await snap(page, 'pending-3-partial-close');
    await part.getByRole('button', { name: 'Close 4000' }).click();
    await expectToast(page, 'Part of the position closed');
    await expect
      .poll(async () => (await positionCell(page, position!.id, 'Amount')).textContent(), { timeout: 10_000 })
      .toBe('0.06 lot');
    await tab(page, 'History').click();
    await expect
      .poll(() => page.getByText('PARTIAL CLOSE', { exact: true }).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await snap(page, 'pending-4-history');
  });

  it("drags a position's stop-loss line to a new level, and a refused drag snaps back with the server's reason", async () => {
    const { page } = j;
    await signInAs(page, CLIENT);
    await page.getByRole('button', { name: 'Show EUR/USD on the chart' }).first().click();
    const order = await placeOrderFromList(page, {
      side: 'Buy',
      label: 'EUR/USD',
      // The stop-loss starts 1% under the ask: on the daily chart, well inside the price scale.
      prepare: async (dialog) => {
        await dialog.getByRole('switch', { name: 'Stop Loss' }).check();
      },
    });
    await dashboard.position(page, order.id).waitFor();
    await expect.poll(() => chartLines(page)).toContain(`loss-${order.id}`);
    await dismissToasts(page);

    const from = await lineRow(page, `loss-${order.id}`);
    const saved = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/dashboard/orders/${order.id}` && r.request().method() === 'PUT',
    );
    await page.mouse.down();
    await page.mouse.move(from.x, from.y + 20, { steps: 6 });
    await page.mouse.up();
    expect((await saved).status()).toBe(200);
    await expectToast(page, 'Stop Loss Set Successfully');
    await expect
      .poll(async () => Number(await (await positionCell(page, order.id, 'Stop Loss')).textContent()))
      .toBeLessThan(Number(order.loss));
    const moved = await (await positionCell(page, order.id, 'Stop Loss')).textContent();
    await snap(page, 'pending-5-stop-loss-dragged');

    // Above the open rate a buy's stop-loss is refused: the line goes back and the reason is shown.
    await dismissToasts(page);
    const at = await lineRow(page, `loss-${order.id}`);
    const refused = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/dashboard/orders/${order.id}` && r.request().method() === 'PUT',
    );
    await page.mouse.down();
    await page.mouse.move(at.x, Math.max(at.y - 400, (await dashboard.chart(page).boundingBox())!.y + 4), {
      steps: 8,
    });
    await page.mouse.up();
    const answer = await refused;
    expect(answer.status()).toBeGreaterThanOrEqual(400);
    const { message } = (await answer.json()) as { message: string };
    await expectToast(page, message);
    await expect.poll(async () => (await positionCell(page, order.id, 'Stop Loss')).textContent()).toBe(moved);
    await lineRow(page, `loss-${order.id}`);
  });

  it('sets a price alert on the charted instrument and sees it fire', async () => {
    const { page } = j;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    await signInAs(page, CLIENT);
    await page.getByRole('button', { name: 'Show EUR/USD on the chart' }).first().click();
    await tab(page, 'Alerts').click();
    await page.getByRole('button', { name: 'New Alert' }).click();
    const dialog = modal(page, /New Alert/);
    const { bid, ask } = await quoteOf(admin, 'EUR_USD');
    const level = eurUsd(bid + 0.005);
    await dialog.getByRole('textbox', { name: 'Alert price' }).fill(level);
    await dialog.getByRole('button', { name: 'Create Alert' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await dismissToasts(page);

    await setQuote(admin, bid + 0.006, ask + 0.006);
    await expectToast(page, 'Price alert: EUR/USD');
    await snap(page, 'pending-6-alert-fired');
  });

  it('trades with one click once it is switched on and confirmed, remembered in the browser', async () => {
    const { page } = j;
    await signInAs(page, CLIENT);
    await page.getByRole('button', { name: 'Show EUR/USD on the chart' }).first().click();
    const toggle = page.getByRole('switch', { name: 'One-click trading' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click({ force: true });
    const confirm = modal(page, /Turn on one-click trading/);
    await snap(page, 'pending-7-one-click-confirm');
    await confirm.getByRole('button', { name: 'I understand, turn it on' }).click();
    await expect.poll(() => toggle.isChecked()).toBe(true);

    // No amount used on EUR/USD in this browser yet: the dialog opens once to choose it.
    await dashboard.chartButton(page, 'BUY').click();
    const dialog = modal(page, /Buy Order/);
    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    await expectToast(page, 'Order Placed Successfully');
    await dismissToasts(page);
    const before = (await openPositions(page, j.url)).length;

    // From now on SELL goes out at once.
    const sent = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/dashboard/orders' && r.request().method() === 'POST',
    );
    await dashboard.chartButton(page, 'SELL').click();
    expect((await sent).status()).toBe(200);
    await expectToast(page, 'Order Placed Successfully');
    expect(await modal(page, /Sell Order/).count()).toBe(0);
    await expect.poll(async () => (await openPositions(page, j.url)).length).toBe(before + 1);

    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'One-click trading' }).isChecked()).toBe(true);
  });
});
