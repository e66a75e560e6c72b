import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, chooseOption, expectPath, expectToast, signInAs, sideMenu, useJourney } from '../support/pages.ts';
import { quoteOf } from '../support/trading.ts';

const CLIENT = 'client@demo.test';

interface ExposureJson {
  data: Array<{ instrument: string; net_volume: number; positions: number; client_floating_pl: number }>;
}

const grouped = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

describe('the exposure desk', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('follows a client trading live: the net, the positions and the P/L move without a reload; a limit set on screen shows on the desk', async () => {
    const { page } = j;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const client = new ApiSession(j.url);
    await client.signIn(CLIENT);
    const eur = async () =>
      (await admin.call<ExposureJson>('GET', '/admin/risk/exposure?mode=all')).json.data.find(
        (r) => r.instrument === 'EUR_USD',
      );

    // --- The desk from the side menu, every wallet mode (the demo client trades on its active wallet) ---
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin');
    await sideMenu(page).getByRole('link', { name: 'Exposure Desk' }).click();
    await expectPath(page, '/admin/risk');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Exposure Desk');
    await page.locator('.mantine-SegmentedControl-root').first().getByText('All', { exact: true }).click();
    const table = page.getByRole('table', { name: 'Exposure by instrument' });
    await table.waitFor();
    const row = table.locator('tr[data-instrument="EUR_USD"]');
    const net = row.locator('[data-field="net_volume"]');
    const before = (await eur())?.net_volume ?? 0;

    // --- The client buys 30,000 EUR/USD: the row shows the new net within a couple of seconds ---
    const bought = await client.call<{ order: { id: number } }>('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '30000',
    });
    expect(bought.status, JSON.stringify(bought.json)).toBe(200);
    await expect.poll(() => net.textContent(), { timeout: 5000 }).toBe(grouped(before + 30000));
    const afterBuy = await eur();
    expect(afterBuy?.net_volume).toBe(before + 30000);
    await snap(page, 'exposure-1-after-buy');

    // --- The price moves (simulator): the clients' P/L on the row follows ---
    const pl = row.locator('[data-field="client_floating_pl"]');
    const plBefore = await pl.textContent();
    const quote = await quoteOf(admin, 'EUR_USD');
    const spread = quote.ask - quote.bid;
    const bid = quote.bid + 0.005;
    const moved = await admin.call('POST', '/admin/simulator/price', {
      instrument: 'EUR_USD',
      bid: bid.toFixed(5),
      ask: (bid + spread).toFixed(5),
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await expect.poll(() => pl.textContent(), { timeout: 5000 }).not.toBe(plBefore);

    // --- The client sells 10,000 and closes the first position: the net follows each step ---
    const sold = await client.call('POST', '/dashboard/orders', {
      type: 'sell',
      instrument: 'EUR_USD',
      amount: '10000',
    });
    expect(sold.status, JSON.stringify(sold.json)).toBe(200);
    await expect.poll(() => net.textContent(), { timeout: 5000 }).toBe(grouped(before + 20000));
    const closed = await client.call('POST', '/dashboard/orders/close', { orderId: bought.json.order.id });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    await expect.poll(() => net.textContent(), { timeout: 5000 }).toBe(grouped(before - 10000));
    await snap(page, 'exposure-2-after-sell-and-close');

    // --- The client is among the top clients by volume ---
    await page
      .locator('.mantine-SegmentedControl-root')
      .filter({ hasText: 'Floating P/L' })
      .getByText('Volume', { exact: true })
      .click();
    await page.getByRole('table', { name: 'Top clients' }).getByText('Chris Client').waitFor({ timeout: 5000 });

    // --- A net limit on EUR/USD set on the limits screen: the desk's row shows how much of it is used ---
    await page.getByRole('link', { name: 'Risk Limits' }).first().click();
    await expectPath(page, '/admin/risk/limits');
    const limits = page.getByRole('table', { name: 'Risk Limits' });
    await limits.waitFor();
    await page.getByRole('button', { name: 'Add limit' }).click();
    const added = limits.locator('tbody tr').last();
    await chooseOption(page, 'INSTRUMENT OR CATEGORY', 'EUR/USD', { type: 'EUR/USD', scope: added });
    await added.getByRole('textbox', { name: 'MAX NET VOLUME' }).fill('1000000');
    await added.getByRole('textbox', { name: 'WARN AT %' }).fill('75');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Limits saved');
    const saved = await admin.call<{ data: Array<{ instrument: string | null; maxNetVolume: number | null }> }>(
      'GET',
      '/admin/risk/limits',
    );
    expect(saved.json.data).toEqual([
      { instrument: 'EUR_USD', category: null, maxNetVolume: 1000000, maxPositionVolume: null, warnPercent: 75 },
    ]);
    await snap(page, 'exposure-3-limits');
    await page.goBack();
    await expectPath(page, '/admin/risk');
    await page.locator('.mantine-SegmentedControl-root').first().getByText('All', { exact: true }).click();
    await row.getByRole('progressbar', { name: 'Limit used' }).waitFor({ timeout: 5000 });
  });
});
