import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import {
  adminTitle,
  chooseOption,
  dataTable,
  dismissToasts,
  expectToast,
  modal,
  signInAs,
  useJourney,
} from '../support/pages.ts';

/** Types in the table search and waits for the list to show only matching rows (the search is debounced). */
async function search(page: Page, text: string, expected: number): Promise<void> {
  await dataTable.search(page).fill(text);
  await expect.poll(() => dataTable.rows(page).filter({ hasNotText: text }).count(), { timeout: 10_000 }).toBe(0);
  await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(expected);
}

const select = (page: Page, name: string) =>
  dataTable.row(page, name).getByRole('checkbox', { name: 'Select row' }).check();

/** Shows columns a list hides by default, with its column chooser. */
async function showColumns(page: Page, names: string[]): Promise<void> {
  const chooser = page.getByRole('button', { name: 'Columns', exact: true });
  await chooser.click();
  for (const name of names) await page.getByRole('checkbox', { name, exact: true }).check();
  await chooser.click();
  await page.getByRole('group', { name: 'Columns' }).waitFor({ state: 'hidden' });
}

describe('CRM', () => {
  const j = useJourney();

  it("assigns leads to agents, who see only theirs (masked), add notes and convert; retention, archive and restore; teams; a sign-up with an agent's promo code", async () => {
    const tag = `Jrny${Date.now().toString(36)}`;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const r = await admin.call('POST', '/admin/leads', {
        firstName: `${tag}${name}`,
        lastName: 'Journey',
        email: `${tag}.${name}@example.test`.toLowerCase(),
        phone: '+44 7700 900555',
        country: 'Spain',
      });
      expect(r.status).toBe(201);
    }
    const [alpha, beta, gamma] = ['Alpha', 'Beta', 'Gamma'].map((n) => `${tag}${n}`);

    // --- The admin assigns two of them to the demo sales agent ---
    let page = j.page;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/crm/sales/all');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Sales');
    await search(page, tag, 3);
    for (const h of ['ID', 'FIRST NAME', 'EMAIL', 'PHONE', 'SALE STATUS', 'SALE AGENT', 'ACTIONS'])
      await page.getByRole('columnheader', { name: h, exact: true }).waitFor();
    // Secondary columns start hidden; the column chooser offers them.
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    for (const h of ['NOTES', 'REGISTERED AT']) await page.getByRole('checkbox', { name: h, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    await page.getByRole('group', { name: 'Columns' }).waitFor({ state: 'hidden' });
    await select(page, alpha);
    await select(page, beta);
    await page.getByRole('button', { name: 'Assign Agent' }).click();
    await modal(page, 'Select Agent').getByRole('button', { name: 'Sam Sales' }).click();
    await expectToast(page, 'Agents assigned successfully');
    await dataTable.row(page, alpha).getByText('Sam Sales').waitFor();
    await snap(page, 'crm-sales-admin');

    // --- The agent sees only those two, contacts masked, adds a note and converts one ---
    page = await j.reopen();
    await signInAs(page, 'agent@demo.test');
    await page.goto('/admin/crm/sales/all');
    await search(page, tag, 2);
    expect(await dataTable.row(page, gamma).count()).toBe(0);
    await dataTable
      .row(page, alpha)
      .getByText(/\*\*\*\*@example\.test/)
      .waitFor();
    await dataTable.row(page, alpha).getByText('******55').waitFor();
    expect(await page.getByRole('button', { name: 'Assign Agent' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Filter Agent' }).count()).toBe(0);
    await snap(page, 'crm-sales-agent');
    await dataTable.row(page, alpha).getByRole('button', { name: 'Notes' }).click();
    const notes = modal(page, 'Notes');
    await notes.getByPlaceholder('Enter note').fill('Prefers a call after lunch');
    await notes.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Notes created successfully');
    await notes.getByText('Prefers a call after lunch').waitFor();
    await page.keyboard.press('Escape');
    // The NOTES column (hidden by default) previews the latest note once shown.
    await showColumns(page, ['NOTES']);
    await dataTable.row(page, alpha).getByText('Prefers a ca…').waitFor();
    await dataTable.row(page, beta).getByRole('button', { name: 'Convert' }).click();
    const convert = modal(page, /Convert Lead #\d+ To User/);
    await convert.getByRole('textbox', { name: 'Password' }).fill('Welcome12345');
    await convert.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Lead converted successfully');
    // A converted lead is a client now: it leaves the sales list.
    await expect.poll(() => dataTable.rows(page).count()).toBe(1);

    // --- The admin sends Alpha to retention and assigns the retention agent; archives Gamma ---
    page = await j.reopen();
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/crm/clients');
    await search(page, tag, 1);
    await showColumns(page, ['ROLE']);
    await dataTable.row(page, beta).getByText('Customer').waitFor();
    await page.goto('/admin/crm/sales/all');
    await search(page, tag, 2);
    await select(page, alpha);
    await page.getByRole('button', { name: 'Send to Retentions' }).click();
    await expectToast(page, 'Lead moved successfully');
    await expect.poll(() => dataTable.rows(page).count()).toBe(1);
    expect(await page.getByRole('row').getByRole('checkbox', { checked: true }).count()).toBe(0);
    await dismissToasts(page);
    await select(page, gamma);
    await page.getByRole('button', { name: 'Bulk archive' }).click();
    await expectToast(page, 'Lead moved successfully');
    await expect.poll(() => dataTable.rows(page).count()).toBe(0);

    await page.goto('/admin/crm/retention');
    await search(page, tag, 1);
    await select(page, alpha);
    await page.getByRole('button', { name: 'Assign Retention Agent' }).click();
    await modal(page, 'Select Retention Agent').getByRole('button', { name: 'Rita Retention' }).click();
    await expectToast(page, 'Agents assigned successfully');
    await dataTable.row(page, alpha).getByText('Rita Retention').waitFor();

    await page.goto('/admin/crm/archived');
    await search(page, tag, 1);
    await snap(page, 'crm-archived');
    await select(page, gamma);
    await page.getByRole('button', { name: 'Bulk Remove Archive' }).click();
    await expectToast(page, 'Lead moved successfully');
    await expect.poll(() => dataTable.rows(page).count()).toBe(0);
    await page.goto('/admin/crm/sales/all');
    await search(page, tag, 1);
    await dataTable.row(page, gamma).waitFor();

    // --- The admin forms a team of the manager, the sales agent and the retention agent, then deletes it ---
    await page.goto('/admin/crm-config/teams');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Teams');
    await page.getByRole('button', { name: 'Add New' }).click();
    const teamForm = modal(page, 'Add Team');
    await teamForm.getByRole('textbox', { name: 'Name' }).fill(`${tag} Team`);
    await teamForm.getByRole('textbox', { name: 'Code' }).fill(tag);
    await chooseOption(page, 'Manager', 'Max Manager', { scope: teamForm });
    await teamForm.getByRole('combobox', { name: 'Agents' }).click();
    await page.getByRole('option', { name: 'Sam Sales', exact: true }).click();
    await page.getByRole('option', { name: 'Rita Retention', exact: true }).click();
    await teamForm.getByRole('textbox', { name: 'Name' }).click();
    await teamForm.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Team added successfully');
    await search(page, tag, 1);
    await dataTable.row(page, `${tag} Team`).getByText('Max Manager').waitFor();
    await snap(page, 'crm-teams');
    await dataTable.row(page, `${tag} Team`).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Are you sure to delete this team?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'Team deleted successfully');
    await expect.poll(() => dataTable.rows(page).count()).toBe(0);

    // --- The retention agent sees Alpha among their retention leads ---
    page = await j.reopen();
    await signInAs(page, 'retention@demo.test');
    await page.goto('/admin/crm/retention');
    await search(page, tag, 1);
    await dataTable.row(page, alpha).getByText('Rita Retention').waitFor();
    expect(await page.getByRole('button', { name: 'Send to Sales' }).count()).toBe(0);
    await snap(page, 'crm-retention-agent');

    // --- The sales agent generates a promo code; a customer who signs up with it is their lead ---
    page = await j.reopen();
    await signInAs(page, 'agent@demo.test');
    await page.goto('/admin/promo-code');
    const codeField = page.getByPlaceholder('Click generate to get promo code');
    await codeField.waitFor();
    await page.getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'Promo code generated successfully');
    await expect.poll(() => codeField.inputValue()).toMatch(/^[A-Z2-9]{8}$/);
    const code = await codeField.inputValue();
    await snap(page, 'crm-promo-code');
    const delta = `${tag}Delta`;
    const signup = await new ApiSession(j.url).call('POST', '/auth/signup', {
      fullName: `Dana ${delta}`,
      email: `${delta}@example.test`.toLowerCase(),
      password: 'Welcome12345',
      passwordConfirmation: 'Welcome12345',
      phone: '+44 7700 900777',
      birthDate: '1990-04-05',
      country: 'Spain',
      city: 'Madrid',
      address: '1 Calle Mayor',
      postalCode: '28013',
      promoCode: code.toLowerCase(),
      currency: 'USD',
    });
    expect(signup.status).toBe(201);
    await page.goto('/admin/crm/sales/live');
    await search(page, delta, 1);
    await dataTable.row(page, delta).getByText('Sam Sales').waitFor();
    await showColumns(page, ['ROLE']);
    await dataTable.row(page, delta).getByText('Customer').waitFor();
  });
});
