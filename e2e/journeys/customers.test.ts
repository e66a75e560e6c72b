import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { newPage, snap } from '../support/browser.ts';
import {
  adminTitle,
  dataTable,
  expectPath,
  expectToast,
  modal,
  signInAs,
  topBar,
  useJourney,
} from '../support/pages.ts';

const customer = { fullName: 'Tessa Tracked', email: 'tessa.tracked@example.test', password: 'TessaPass123' };

describe('Customers', () => {
  const j = useJourney();

  it('adds, edits, funds, tracks, logs in as a customer and back, and deletes', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/customers/all');
    await expect.poll(() => adminTitle(page).textContent()).toBe('All Customers');
    // The demo holds a month of customers: the newest come first, so the demo client is found by search.
    await dataTable.rows(page).first().waitFor();
    await dataTable.search(page).fill('client@demo.test');
    const demoClient = dataTable.row(page, 'client@demo.test');
    await demoClient.waitFor();
    await dataTable.search(page).fill('');
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(15);
    for (const h of ['ID', 'FULL NAME', 'EMAIL', 'PHONE', 'BALANCE', 'EQUITY', 'FTD', 'KYC', 'STATUS', 'ACTIONS'])
      await page.getByRole('columnheader', { name: h, exact: true }).waitFor();
    // Secondary columns start hidden; the column chooser offers them.
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    for (const h of ['BIRTH DATE', 'COUNTRY', 'ROLE', 'EMAIL VERIFIED', 'LAST LOGIN'])
      await page.getByRole('checkbox', { name: h, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    await page.getByRole('group', { name: 'Columns' }).waitFor({ state: 'hidden' });
    await snap(page, 'customers-list');

    // --- Add a customer; the spec's messages first ---
    await page.getByRole('button', { name: 'Add New' }).click();
    const add = modal(page, 'Add New Customer');
    await add.waitFor();
    await add.getByRole('button', { name: 'Submit' }).click();
    await add.getByText('Full name is required').waitFor();
    await add.getByText('Email is required').waitFor();
    await add.getByRole('textbox', { name: 'Full Name' }).fill(customer.fullName);
    await add.getByRole('textbox', { name: 'Email' }).fill(customer.email);
    await add.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await add.getByRole('button', { name: 'Submit' }).click();
    await add.getByText('Password must be at least 8 characters').waitFor();
    await add.getByRole('textbox', { name: 'Password', exact: true }).fill(customer.password);
    await add.getByRole('switch', { name: 'Email Verified' }).check({ force: true });
    await snap(page, 'customers-add');
    await add.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Customer added successfully');
    await add.waitFor({ state: 'detached' });
    const row = dataTable.row(page, customer.email);
    await row.waitFor();
    await row.getByLabel('Offline').waitFor();

    // --- Edit the profile ---
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => adminTitle(page).textContent()).toBe('Edit Customer');
    const customerPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: customer.fullName }).waitFor();
    await page.getByRole('textbox', { name: 'City' }).fill('Lisbon');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Customer updated successfully');

    // --- Add to the real wallet with a reason; the page reloads with the new balance ---
    const realWallet = page.locator('[data-testid^="balance-"]').filter({ hasText: 'Real' });
    await realWallet.getByText('$0.00').waitFor();
    await realWallet.getByRole('button', { name: 'Add Balance' }).click();
    const adjust = page.getByRole('dialog').filter({ hasText: 'Reason' });
    await adjust.getByRole('textbox', { name: 'Amount' }).fill('125.50');
    await adjust.getByRole('textbox', { name: 'Reason' }).fill('Welcome bonus');
    await snap(page, 'customers-balance-add');
    const reloaded = page.waitForEvent('load');
    await adjust.getByRole('button', { name: 'Add' }).click();
    await reloaded;
    await realWallet.getByText('$125.50').waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'City' }).inputValue()).toBe('Lisbon');

    // --- Tracking: the customer browses in another browser and the pages appear ---
    await page.getByRole('tab', { name: 'Tracking' }).click();
    await page.getByText('No data found').waitFor();
    const other = await newPage(j.context.browser()!, j.url);
    try {
      await signInAs(other.page, customer.email, customer.password);
      await page.getByRole('cell', { name: '/dashboard', exact: true }).waitFor();
      await other.page.goto('/deposits');
      await page.getByRole('cell', { name: '/deposits', exact: true }).waitFor();
      await other.page.goto('/dashboard');
      await other.page.goto('/deposits');
      await page.getByRole('cell', { name: '/deposits', exact: true }).waitFor();
      // The online dot follows the customer.
      await page.getByText('Online', { exact: true }).waitFor();
      await snap(page, 'customers-tracking');
      expect(await page.getByRole('cell', { name: '/dashboard', exact: true }).count()).toBe(1);
    } finally {
      await other.context.close();
    }
    await page.getByText('Offline', { exact: true }).waitFor();
    await snap(page, 'customers-edit');

    // --- Login as the demo client, then Back To Admin ---
    await page.goto('/admin/customers/all');
    await dataTable.rows(page).first().waitFor();
    await dataTable.search(page).fill('client@demo.test');
    await demoClient.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Chris Client' }).waitFor();
    await page.getByRole('button', { name: 'Login as' }).click();
    await expectPath(page, '/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('backToAdmin'))).toBe('enabled');
    const back = topBar(page).getByRole('button', { name: 'Back To Admin' });
    await back.waitFor();
    await snap(page, 'customers-login-as');
    await back.click();
    await expectPath(page, '/admin');
    expect(await page.evaluate(() => localStorage.getItem('backToAdmin'))).toBeNull();

    // --- Delete the new customer ---
    await page.goto('/admin/customers/all');
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure to delete this user?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'Customers deleted successfully');
    await row.waitFor({ state: 'detached' });
    await page.goto(customerPath);
    await page.getByText('This page does not exist.').waitFor();
  });

  it('shows a retention agent the customer read-only with masked contacts, without Login as', async () => {
    const { page } = j;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const list = await admin.call<{ data: Array<{ id: number }> }>(
      'GET',
      '/admin/customers/api/all?search=client@demo.test',
    );
    const clientId = list.json.data[0].id;
    await signInAs(page, 'retention@demo.test');
    await page.goto(`/admin/customers/edit/${clientId}`);
    await page.getByRole('heading', { name: 'Chris Client' }).waitFor();
    await page.getByText('clnt****@demo.test').first().waitFor();
    expect(await page.getByRole('textbox', { name: 'Phone' }).inputValue()).toMatch(/^\*{6}\d{2}$/);
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add Balance' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Deposits' }).count()).toBe(0);
    // Login as would show the customer's own screens, contacts unmasked: retention agents are not offered it.
    expect(await page.getByRole('button', { name: 'Login as' }).count()).toBe(0);
    await snap(page, 'customers-retention-view');
  });
});
