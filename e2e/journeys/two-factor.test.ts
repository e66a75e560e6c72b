import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { codeAt } from '../support/totp.ts';
import {
  adminTitle,
  dataTable,
  expectPath,
  expectToast,
  logOut,
  modal,
  signInAs,
  signInPage,
  topBar,
  useJourney,
} from '../support/pages.ts';

const MANAGER = 'manager@demo.test';

describe('Staff two-factor sign-in', () => {
  const j = useJourney();

  it('the manager turns it on, signs in with password and code, and an admin resets it', async () => {
    let page = j.page;
    await signInAs(page, MANAGER);
    await page.goto('/security');
    const card = page.locator('.mantine-Paper-root').filter({ hasText: 'Two-factor sign-in' }).last();
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('Off');

    // --- Set up: QR code and key, then a code from the app ---
    await card.getByRole('button', { name: 'Set up' }).click();
    const secretInput = card.getByTestId('two-factor-secret');
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await card.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await snap(page, 'two-factor-setup');
    await card.getByTestId('two-factor-code').fill(codeAt(secret));
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expectToast(page, 'Two-factor sign-in is on');

    // --- The recovery codes, once, until saved ---
    const codes = card.getByTestId('recovery-codes');
    await codes.waitFor();
    expect(await codes.locator('code').count()).toBe(10);
    await snap(page, 'two-factor-recovery-codes');
    const done = codes.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    await codes.getByText('I have saved these codes').click();
    await done.click();
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('On');
    await card.getByText('10 recovery codes left').waitFor();
    await snap(page, 'two-factor-on');

    // --- Signing in now takes the password and a code ---
    await logOut(page);
    await signInPage.submitWith(page, MANAGER, 'Demo12345!');
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await snap(page, 'two-factor-sign-in-code');
    // The next period's code: the one used to turn it on is not accepted again.
    await page.getByTestId('two-factor-code').fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPath(page, '/dashboard');
    await topBar(page).waitFor();

    // --- An admin resets it (lost phone) ---
    page = await j.reopen();
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/users');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Admin & Staffs');
    await dataTable.row(page, MANAGER).getByRole('button', { name: 'Edit' }).click();
    const edit = modal(page, 'Edit User');
    await edit.waitFor();
    await edit.getByRole('button', { name: 'Reset two-factor' }).click();
    await page.getByText('Reset two-factor sign-in for this user?').waitFor();
    await snap(page, 'two-factor-admin-reset');
    await page.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, `Two-factor sign-in was reset for ${MANAGER}`);

    // --- Admins choose the roles that must use it, on their Security page ---
    await page.goto('/security');
    await page.getByText('Require two-factor sign-in for roles').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);
    await snap(page, 'two-factor-admin-policy');

    // --- The manager signs in with the password alone again ---
    page = await j.reopen();
    await signInAs(page, MANAGER);
  });
});
