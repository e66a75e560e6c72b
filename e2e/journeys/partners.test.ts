import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, chooseOption, expectToast, modal, signInAs, useJourney } from '../support/pages.ts';

describe('Partners', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('an admin adds a commission plan and puts the affiliate on it; a client trades; the affiliate reads the commission and exports the statement', async () => {
    let page = j.page;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/partners');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Partners');
    await page.getByRole('button', { name: 'Add plan' }).click();
    const form = modal(page, 'Add plan');
    await form.getByLabel('Name').fill('Journey IB');
    await form.getByLabel('Forex per lot').fill('10');
    await form.getByLabel('Levels % (level 1 first)').fill('100, 20');
    await form.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Plan created');
    await page.getByRole('cell', { name: 'Journey IB' }).waitFor();
    await snap(page, 'partners-admin-plans');

    await page.getByRole('tab', { name: 'Partner tree' }).click();
    await chooseOption(page, 'Affiliate', 'Alex Affiliate (affiliate@demo.test)', { type: 'Alex' });
    await chooseOption(page, 'Plan', 'Journey IB');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Partner saved');
    await page.getByRole('cell', { name: 'Alex Affiliate' }).waitFor();
    await snap(page, 'partners-admin-tree');

    // The demo client becomes the affiliate's client and trades a lot on the real wallet.
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const client = new ApiSession(j.url);
    await client.signIn('client@demo.test');
    const me = await client.call<{ user: { id: number; balances: Array<{ id: number; mode: string }> } }>(
      'GET',
      '/auth/user',
    );
    const affiliate = new ApiSession(j.url);
    await affiliate.signIn('affiliate@demo.test');
    const aff = await affiliate.call<{ user: { id: number } }>('GET', '/auth/user');
    const assigned = await admin.call('PUT', `/admin/partners/clients/${me.json.user.id}`, {
      partnerId: aff.json.user.id,
      reason: 'Journey',
    });
    expect(assigned.status).toBe(200);
    const real = me.json.user.balances.find((b) => b.mode === 'real');
    expect((await client.call('POST', '/dashboard/switch-wallet', { balanceId: real?.id })).status).toBe(200);
    const opened = await client.call<{ order: { id: number } }>('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '100000',
    });
    expect(opened.status).toBe(200);
    expect((await client.call('POST', '/dashboard/orders/close', { orderId: opened.json.order.id })).status).toBe(200);

    page = await j.reopen();
    await signInAs(page, 'affiliate@demo.test');
    await page.goto('/affiliate/partner');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Partner Portal');
    // The commission arrives within a couple of seconds (a queued job).
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('partner-Commission').textContent();
        },
        { timeout: 20_000, interval: 1500 },
      )
      .toMatch(/^\d+\.\d{2} USD$/);
    await snap(page, 'partners-portal-dashboard');
    await page.getByRole('tab', { name: 'Commission statement' }).click();
    await page.getByRole('cell', { name: `#${opened.json.order.id}` }).waitFor();
    await snap(page, 'partners-portal-statement');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toContain(String(opened.json.order.id));

    // Back office: the partner's clients and earnings from the tree.
    page = await j.reopen();
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/partners');
    await page.getByRole('tab', { name: 'Partner tree' }).click();
    await page
      .getByRole('row', { name: /Alex Affiliate/ })
      .getByRole('button', { name: 'Clients and earnings' })
      .click();
    const detail = modal(page, 'Alex Affiliate');
    await detail.getByRole('link', { name: 'Chris Client' }).waitFor();
    await detail.getByRole('cell', { name: `#${opened.json.order.id}` }).waitFor();
    await snap(page, 'partners-admin-partner-detail');
  });
});
