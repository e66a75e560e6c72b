import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, dismissToasts, expectToast, modal, signInAs, useJourney } from '../support/pages.ts';

describe('Leads CSV upload', () => {
  const j = useJourney();

  it('uploads 1,000 rows with bad and duplicate rows and reads the report; the good rows are in the list', async () => {
    const tag = `Csv${Date.now().toString(36)}`;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const known = await admin.call('POST', '/admin/leads', {
      firstName: `${tag}Known`,
      email: `${tag}.known@example.test`.toLowerCase(),
    });
    expect(known.status).toBe(201);

    // 1,000 rows: row 101 has a bad email, row 201 no first name, row 301 repeats a lead, row 401 repeats row 2.
    const lines = ['First Name,Last Name,Email,Phone,Country'];
    for (let i = 1; i <= 1000; i++) {
      const email =
        i === 100
          ? 'not-an-email'
          : i === 300
            ? `${tag}.known@example.test`
            : i === 400
              ? `${tag}.1@example.test`
              : `${tag}.${i}@example.test`;
      lines.push(`${i === 200 ? '' : `${tag}L${i}`},Upload,${email.toLowerCase()},,Spain`);
    }
    const file = join(tmpdir(), `${tag}.csv`);
    await writeFile(file, `${lines.join('\n')}\n`);

    const page = j.page;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/leads/manual');
    await expect.poll(() => adminTitle(page).textContent()).toMatch(/manual Leads/i);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const dialog = modal(page, 'Upload Leads');
    await dialog.getByRole('link', { name: 'Download an example CSV' }).waitFor();
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Leads added successfully');
    const report = dialog.getByTestId('csv-report');
    await report.getByText('996 / 1000 leads imported').waitFor();
    await report.getByText('2 rejected, 2 duplicates').waitFor();
    for (const [row, why] of [
      ['101', 'email: Invalid email'],
      ['201', 'firstName: First name is required'],
      ['301', 'email matches an existing lead'],
      ['401', 'email matches an earlier row of this file'],
    ]) {
      await report.getByRole('row').filter({ hasText: why }).getByRole('cell', { name: row, exact: true }).waitFor();
    }
    await snap(page, 'leads-csv-report');
    await dialog
      .getByRole('button', { name: 'Close' })
      .click()
      .catch(() => page.keyboard.press('Escape'));

    await dataTable.search(page).fill(`${tag}L99`);
    await dataTable.row(page, `${tag}L999`).waitFor();

    // The import runs in the background: the modal may be closed at once, and the list still gets the new leads.
    const later = join(tmpdir(), `${tag}-later.csv`);
    await writeFile(
      later,
      [
        'firstName,email',
        ...Array.from({ length: 50 }, (_, i) => `${tag}M${i},${tag}.m${i}@example.test`.toLowerCase()),
      ].join('\n'),
    );
    await dataTable.search(page).fill(`${tag}M4`);
    await page.getByText('No data found').waitFor();
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    await dialog.locator('input[type=file]').setInputFiles(later);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectToast(page, 'Leads added successfully');
    await dataTable.row(page, `${tag}M49`).waitFor();
  });
});
