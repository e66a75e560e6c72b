import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { adminTitle, sideMenu, signInAs, useJourney } from '../support/pages.ts';

describe('Records', () => {
  const j = useJourney();

  it('an admin verifies the records from the menu and finds the daily checkpoints and a checkpoint to download', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin');
    await sideMenu(page).getByRole('link', { name: 'Records' }).click();
    await expect.poll(() => adminTitle(page).textContent()).toBe('Records');
    await page.getByRole('button', { name: 'Verify records' }).click();
    const result = page.getByTestId('records-verify-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('The records are intact');
    expect(await result.textContent()).toMatch(/Ledger: \d+ rows, every link holds/);
    await page.getByText('Daily checkpoints').waitFor();
    expect(await page.getByRole('link', { name: 'Download a checkpoint now' }).getAttribute('href')).toBe(
      '/api/admin/records/checkpoint',
    );
    await snap(page, 'admin-records');
  });
});
