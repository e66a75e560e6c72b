import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import {
  adminTitle,
  chooseOption,
  dataTable,
  expectPath,
  expectToast,
  modal,
  sideMenu,
  signInAs,
  useJourney,
} from '../support/pages.ts';

const DEMO_STAFF = [
  'admin@demo.test',
  'manager@demo.test',
  'affiliate@demo.test',
  'subpartner@demo.test',
  'agent@demo.test',
  'retention@demo.test',
];
const newStaff = { fullName: 'Quinn Staff', email: 'quinn.staff@demo.test', password: 'StaffPass123!' };

/** Types into the table's search box and waits out the debounce until the rows are the expected ones. */
async function searchTable(page: Page, term: string, expectedRows: number): Promise<void> {
  await dataTable.search(page).fill(term);
  await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(expectedRows);
}

describe('Admin & Staffs', () => {
  const j = useJourney();

  it('lists, searches, adds, edits and deletes staff users', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/users');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Admin & Staffs');

    // --- The demo staff are listed, the client is not ---
    for (const email of DEMO_STAFF) await dataTable.row(page, email).waitFor();
    expect(await dataTable.rows(page).count()).toBe(DEMO_STAFF.length);
    expect(await dataTable.row(page, 'client@demo.test').count()).toBe(0);
    await expect.poll(() => dataTable.total(page).textContent()).toBe(`Total: ${DEMO_STAFF.length}`);
    const managerRow = dataTable.row(page, 'manager@demo.test');
    await managerRow.getByRole('cell', { name: 'Max Manager' }).waitFor();
    for (const cell of ['Manager', 'Yes', 'Active'])
      await managerRow.getByRole('cell', { name: cell, exact: true }).waitFor();
    await snap(page, 'staff-users-list');

    // --- Search waits for the user to stop typing, then asks the server ---
    await dataTable.search(page).fill('manager');
    expect(await dataTable.rows(page).count()).toBe(DEMO_STAFF.length);
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(1);
    await dataTable.row(page, 'manager@demo.test').waitFor();
    await expect.poll(() => dataTable.total(page).textContent()).toBe('Total: 1');
    await snap(page, 'staff-users-search');
    await searchTable(page, '', DEMO_STAFF.length);

    // --- Add a manager: a short password is refused first ---
    await page.getByRole('button', { name: 'Add New' }).click();
    const add = modal(page, 'Add New User');
    await add.waitFor();
    await add.getByRole('textbox', { name: 'Full Name' }).fill(newStaff.fullName);
    await add.getByRole('textbox', { name: 'Email' }).fill(newStaff.email);
    await add.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await chooseOption(page, 'Role', 'Manager', { scope: add });
    expect(await add.getByRole('textbox', { name: 'IP Whitelist' }).inputValue()).toBe('');
    await add.getByRole('button', { name: 'Submit' }).click();
    await add.getByText('Password must be at least 8 characters').waitFor();
    await snap(page, 'staff-users-short-password');
    expect(await add.isVisible()).toBe(true);

    await add.getByRole('textbox', { name: 'Password', exact: true }).fill(newStaff.password);
    await add.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'User added successfully');
    await add.waitFor({ state: 'detached' });
    const row = dataTable.row(page, newStaff.email);
    await row.waitFor();
    await row.getByRole('cell', { name: 'Manager', exact: true }).waitFor();
    await row.getByRole('cell', { name: newStaff.fullName }).waitFor();
    expect(await dataTable.rows(page).count()).toBe(DEMO_STAFF.length + 1);

    // --- Edit the name ---
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = modal(page, 'Edit User');
    await edit.waitFor();
    expect(await edit.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(newStaff.email);
    await edit.getByRole('textbox', { name: 'Full Name' }).fill('Quinn Renamed');
    await edit.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'User updated successfully');
    await edit.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'Quinn Renamed' }).waitFor();

    // --- Delete, after confirming ---
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure to delete this user?' });
    await confirm.waitFor();
    await snap(page, 'staff-users-delete-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'User deleted successfully');
    await row.waitFor({ state: 'detached' });
    expect(await dataTable.rows(page).count()).toBe(DEMO_STAFF.length);
  });

  it('shows the mails the platform wrote in the outbox', async () => {
    const { page } = j;
    // A password-reset request writes a mail to the outbox (there is no SMTP here).
    const anonymous = new ApiSession(j.url);
    expect((await anonymous.call('POST', '/forgot-password', { email: 'manager@demo.test' })).status).toBe(200);

    await signInAs(page, 'admin@demo.test');
    await page.getByRole('banner').getByRole('link', { name: 'Admin', exact: true }).click();
    await expectPath(page, '/admin');
    await sideMenu(page).getByRole('link', { name: 'Mail Outbox' }).click();
    await expectPath(page, '/admin/mail');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Mail Outbox');

    const mail = dataTable.row(page, 'manager@demo.test');
    await mail.waitFor();
    await mail.getByRole('cell', { name: 'Reset your Trading Platform password' }).waitFor();
    expect(await dataTable.rows(page).count()).toBeGreaterThanOrEqual(1);
    await mail.getByRole('button', { name: 'View' }).click();
    const view = modal(page, 'Reset your Trading Platform password');
    await view.waitFor();
    await view
      .getByTestId('mail-text')
      .getByText(/\/reset-password\?token=/)
      .waitFor();
    await snap(page, 'staff-mail-outbox');
  });
});
