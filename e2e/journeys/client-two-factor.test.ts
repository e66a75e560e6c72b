import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { codeAt } from '../support/totp.ts';
import { expectPath, expectToast, logOut, signInAs, signInPage, topBar, useJourney } from '../support/pages.ts';

const CLIENT = 'client@demo.test';

describe('Client two-factor sign-in', () => {
  const j = useJourney();

  it('the client turns it on from the Security page, signs in with password and code, and turns it off', async () => {
    const page = j.page;
    await signInAs(page, CLIENT);
    await page.goto('/security');
    const card = page.locator('.mantine-Paper-root').filter({ hasText: 'Two-factor sign-in' }).last();
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('Off');
    // The roles policy is the admins' alone.
    expect(await page.getByText('Require two-factor sign-in for roles').count()).toBe(0);

    await card.getByRole('button', { name: 'Set up' }).click();
    const secretInput = card.getByTestId('two-factor-secret');
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    await card.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await snap(page, 'client-two-factor-setup');
    await card.getByTestId('two-factor-code').fill(codeAt(secret));
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expectToast(page, 'Two-factor sign-in is on');
    const codes = card.getByTestId('recovery-codes');
    await codes.waitFor();
    expect(await codes.locator('code').count()).toBe(10);
    await codes.getByText('I have saved these codes').click();
    await codes.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('On');

    // --- Signing in now takes the password and a code ---
    await logOut(page);
    await signInPage.submitWith(page, CLIENT, 'Demo12345!');
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    // The next period's code (the one used to turn it on is not accepted again).
    const signInStep = Math.floor(Date.now() / 30_000) + 1;
    await page.getByTestId('two-factor-code').fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPath(page, '/dashboard');
    await topBar(page).waitFor();
    await snap(page, 'client-two-factor-signed-in');

    // --- Turning it off takes the password and a code of a later period than the sign-in's ---
    await page.goto('/security');
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('On');
    await card.getByRole('button', { name: 'Turn off' }).click();
    await card.getByLabel('Current Password').fill('Demo12345!');
    while (Math.floor(Date.now() / 30_000) < signInStep) await page.waitForTimeout(1000);
    await card.getByTestId('two-factor-code').fill(codeAt(secret, 1));
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expectToast(page, 'Two-factor sign-in is off');
    await expect.poll(() => card.getByTestId('two-factor-status').textContent()).toBe('Off');
  });
});
