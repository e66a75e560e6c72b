import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, signInAs, useJourney } from '../support/pages.ts';

describe('Dashboard, Server Info and Audit Log', () => {
  const j = useJourney();

  it('shows the dashboard of a working broker, for all time and for a range', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Dashboard');
    const trades = page.getByTestId('card-Total Trades');
    await expect.poll(async () => Number(await trades.textContent()), { timeout: 15_000 }).toBeGreaterThan(10);
    for (const card of ['Total Deposits', 'Total Withdraws', 'Total Users', 'Profit/Loss'])
      await page.getByTestId(`card-${card}`).waitFor();
    await page.getByText('Totals in USD, real wallets only', { exact: false }).waitFor();
    await page.getByText('Recent Transactions').waitFor();
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    await page.locator('.recharts-pie-sector').first().waitFor();
    await snap(page, 'admin-dashboard');
    const allTime = Number(await trades.textContent());

    // A range in the future has nothing; Reset brings the all-time totals back.
    const future = new Date(Date.now() + 40 * 86_400_000);
    const typed = `${String(future.getUTCDate()).padStart(2, '0')}/${String(future.getUTCMonth() + 1).padStart(2, '0')}/${future.getUTCFullYear()}`;
    await page.getByRole('textbox', { name: 'From' }).fill(typed);
    // Typed dates are read when the field is left.
    await page.getByRole('textbox', { name: 'From' }).press('Tab');
    await expect.poll(() => trades.textContent(), { timeout: 10_000 }).toBe('0');
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(async () => Number(await trades.textContent()), { timeout: 10_000 }).toBe(allTime);
  });

  it('shows live server figures, and the audit trail of a staff action, filtered and exported', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');

    // --- Server Info: the spec's figures, read again every few seconds ---
    await page.goto('/admin/status/server');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Server Info');
    for (const label of [
      'CPU Model',
      'CPU Usage',
      'Logical Cores',
      'Memory Usage',
      'Total Memory',
      'Database',
      'Open websocket connections',
    ])
      await page.getByText(label, { exact: true }).waitFor();
    const cpu = page.getByTestId('figure-CPU Usage');
    await expect.poll(() => cpu.textContent()).toMatch(/^\d+(\.\d)?\/100%$/);
    const reads = () =>
      page.evaluate(
        () =>
          performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/admin/status/server')).length,
      );
    const first = await reads();
    await expect.poll(reads, { timeout: 10_000 }).toBeGreaterThan(first);
    await snap(page, 'server-info');

    // --- A staff action is in the audit log: an admin unlocks a customer's sign-in ---
    const api = new ApiSession(j.url);
    await api.signIn('admin@demo.test');
    const clients = await api.call<{ data: Array<{ id: number; email: string }> }>(
      'GET',
      '/admin/customers/api/all?search=client%40demo.test',
    );
    const client = clients.json.data[0];
    expect((await api.call('DELETE', `/admin/users/${client.id}/sign-in-lock`)).status).toBe(200);

    await page.goto('/admin/audit');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Audit Log');
    await dataTable.row(page, 'user.sign_in_unlock').first().waitFor();
    await page.getByRole('textbox', { name: 'Subject' }).fill('client@demo.test');
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const row = dataTable.row(page, 'user.sign_in_unlock').first();
    await row.getByRole('cell', { name: 'admin@demo.test' }).waitFor();
    await row.getByRole('cell', { name: 'client@demo.test' }).waitFor();
    await row.getByRole('button', { name: 'was_locked' }).click();
    await page.getByText('"was_locked": false').waitFor();
    await snap(page, 'audit-log');

    // --- The filtered rows download as CSV ---
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await (await download.createReadStream())
      .toArray()
      .then((chunks) => Buffer.concat(chunks).toString('utf8'));
    expect(text).toContain('user.sign_in_unlock');
    expect(text).toContain('client@demo.test');
  });
});
