import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

describe('Site Settings', () => {
  const j = useJourney();

  it('renames the platform and uploads a logo: the admin tab and the sign-in page follow without a restart', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/settings');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Site Settings');
    const name = page.getByRole('textbox', { name: 'App Name' });
    await expect.poll(() => name.inputValue()).toBe('Trading Platform');
    await name.fill('Acme Markets');
    await page.getByRole('textbox', { name: 'App Name' }).press('Tab');
    // A 1×1 PNG as the new logo.
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    await page
      .locator('input[type="file"]')
      .nth(1)
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Settings updated successfully');
    await expect.poll(() => page.title()).toContain('Acme Markets');
    await expect.poll(() => page.getByRole('img', { name: 'App Logo' }).getAttribute('src')).toMatch(/^\/api\/files\//);
    await snap(page, 'site-settings');

    // Someone signed out sees the new name and logo on the sign-in page.
    const visitor = await j.reopen();
    await visitor.goto('/');
    await expect.poll(() => visitor.title()).toContain('Acme Markets');
    await expect.poll(() => visitor.locator('img[src^="/api/files/"]').count()).toBeGreaterThan(0);
  });

  it('adds a language and a translation: the language menu offers it and the screens speak it', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/languages');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Languages Settings');
    await page.getByRole('textbox', { name: 'Code' }).first().waitFor();
    await page.getByRole('button', { name: 'Add Language' }).click();
    await page.getByRole('textbox', { name: 'Name' }).last().fill('Deutsch');
    await page.getByRole('textbox', { name: 'Code' }).last().fill('de');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Languages updated successfully');

    await page.getByRole('link', { name: 'Edit de' }).click();
    await expect.poll(() => adminTitle(page).textContent()).toBe('de');
    await page.getByRole('button', { name: 'Add New' }).click();
    await page.getByRole('textbox', { name: 'Key' }).fill('Dashboard');
    await page.getByRole('textbox', { name: 'Value' }).fill('Übersicht');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Translation added successfully');
    await dataTable.row(page, 'Übersicht').waitFor();
    await snap(page, 'translations-de');

    // The language menu now offers Deutsch; choosing it shows the new text in the side menu.
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await page.getByRole('link', { name: 'Übersicht' }).first().waitFor();
  });
});
