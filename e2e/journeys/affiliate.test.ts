import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

describe('Affiliate', () => {
  const j = useJourney();

  it('generates an API key, downloads the documentation, and sees a lead posted with the key in the Leads list', async () => {
    const page = j.page;
    await j.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: j.url });
    await signInAs(page, 'affiliate@demo.test');
    await page.goto('/affiliate/api');
    await expect.poll(() => adminTitle(page).textContent()).toBe('API Key');
    await page.getByPlaceholder('No key yet: generate one').waitFor();

    await page.getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'API key generated successfully');
    const field = page.getByTestId('api-key');
    await expect.poll(() => field.inputValue()).toMatch(/^ak_[\w-]{40}$/);
    const key = await field.inputValue();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expectToast(page, 'Copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await snap(page, 'affiliate-api-key');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Documentation' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lead-intake-api.md');
    const doc = await readFile(await download.path(), 'utf8');
    expect(doc).toContain(`${j.url}/api/affiliate/leads/intake`);
    expect(doc).toContain('X-API-Key');

    // The affiliate's own system posts a lead with the key (twice: the retry creates nothing).
    const name = `Api${Date.now().toString(36)}`;
    const post = () =>
      fetch(`${j.url}/api/affiliate/leads/intake`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          fullName: `${name} Journey`,
          email: `${name.toLowerCase()}@leads.example.com`,
          country: 'Spain',
          phone: '+34 600 000 111',
        }),
      });
    const first = await post();
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: number };
    const again = await post();
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(id);

    await page.goto('/affiliate');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Leads');
    await dataTable.search(page).fill(name);
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(1);
    await dataTable.row(page, name).getByText(String(id), { exact: true }).waitFor();
    await snap(page, 'affiliate-leads-from-api');

    // A new key replaces the old one at once.
    await page.goto('/affiliate/api');
    await expect.poll(() => field.inputValue()).toMatch(/^ak_[\w-]{7}•+$/);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'API key generated successfully');
    await expect.poll(() => field.inputValue()).not.toBe(key);
    expect((await post()).status).toBe(401);
  });
});
