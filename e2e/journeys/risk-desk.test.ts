import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, expectPath, signInAs, sideMenu, useJourney } from '../support/pages.ts';
import { quoteOf } from '../support/trading.ts';

const CLIENT = 'client@demo.test';
const PLAN = 'Risk Desk Plan';

interface Wallet {
  balance: string;
  margin: string;
}

describe('the risk desk', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('lists wallets by margin level, follows a margin call live and links to the customer; the client sees the call in the top bar', async () => {
    const { page } = j;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');

    // A plan that calls margin at 100 % (stop-out at 50 %) with a commission, and the demo client on it.
    const created = await admin.call('POST', '/admin/pricing', {
      name: PLAN,
      price: '0',
      forexLeverage: 100,
      retail: false,
      forexStopout: 50,
      forexCommission: '5',
      commissionCharge: 'both',
      marginCallLevel: 100,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const client = new ApiSession(j.url);
    await client.signIn(CLIENT);
    const plans = await client.call<{ data: Array<{ id: number; name: string }> }>(
      'GET',
      '/dashboard/pricing?limit=50',
    );
    const plan = plans.json.data.find((p) => p.name === PLAN)!;
    expect((await client.call('POST', `/dashboard/pricing/subscribe/${plan.id}`, {})).status).toBe(200);

    // --- The back office's list: real wallets holding margin, lowest margin level first ---
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin');
    await sideMenu(page).getByRole('link', { name: 'Accounts at Risk' }).click();
    await expectPath(page, '/admin/risk/accounts');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Accounts at Risk');
    await dataTable.rows(page).first().waitFor();
    const levels = (await page.locator('table tbody [data-state]').allTextContents()).map((t) => Number.parseFloat(t));
    expect(levels.length).toBeGreaterThan(0);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(await dataTable.rows(page).first().getByText('Real', { exact: true }).count()).toBe(1);
    await snap(page, 'risk-1-real-wallets');

    // --- The client's demo wallet takes a position of some 90 % of its balance in margin ---
    const before = (await client.call<{ activeBalance: Wallet }>('GET', '/auth/user')).json.activeBalance;
    const { ask } = await quoteOf(client, 'EUR_USD');
    const amount = Math.floor((Number(before.balance) * 0.9 * 100) / ask / 1000) * 1000;
    const order = await client.call<{ order: { commission: string } }>('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: String(amount),
    });
    expect(order.status, JSON.stringify(order.json)).toBe(200);
    // $5 a lot, charged at open: the deal carries it, signed as the ledger books it.
    expect(Number(order.json.order.commission)).toBeCloseTo(-(5 * amount) / 100_000, 6);

    // The wallets filter (Real / Demo / All): its labels are what a person clicks.
    await page.locator('.mantine-SegmentedControl-root').getByText('Demo', { exact: true }).click();
    const row = dataTable.row(page, 'Chris Client');
    await row.waitFor();
    expect(await row.getByText('Called').count()).toBe(0);

    // --- EUR/USD falls until the margin level is some 75 %: the margin call fires and the list follows by itself ---
    const wallet = (await client.call<{ activeBalance: Wallet }>('GET', '/auth/user')).json.activeBalance;
    const quote = await quoteOf(admin, 'EUR_USD');
    const spread = quote.ask - quote.bid;
    const target = Number(wallet.margin) * 0.75;
    const bid = quote.ask - (Number(wallet.balance) - target) / amount;
    const moved = await admin.call('POST', '/admin/simulator/price', {
      instrument: 'EUR_USD',
      bid: bid.toFixed(5),
      ask: (bid + spread).toFixed(5),
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await row.getByText('Called').waitFor({ timeout: 15_000 });
    expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('warning');
    const level = Number.parseFloat((await row.locator('[data-state]').textContent()) ?? '');
    expect(level).toBeGreaterThan(50);
    expect(level).toBeLessThanOrEqual(100);
    await snap(page, 'risk-2-margin-call');

    // --- Each row leads to its customer ---
    await row.getByRole('link', { name: 'Chris Client' }).click();
    await page.waitForURL((u) => /^\/admin\/customers\/edit\/\d+$/.test(u.pathname));

    // --- The client's top bar shows the margin level in the warning colour ---
    const clientPage = await j.reopen();
    await signInAs(clientPage, CLIENT);
    const stat = clientPage.getByTestId('top-bar-stats').locator('[data-state]');
    await expect.poll(() => stat.getAttribute('data-state'), { timeout: 10_000 }).toBe('warning');
    await snap(clientPage, 'risk-3-client-top-bar');
  });
});
