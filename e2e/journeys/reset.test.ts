import { describe, expect, it } from 'vitest';
import { lastMailLink } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import {
  DEMO_PASSWORD,
  expectPath,
  expectToast,
  modal,
  pathOf,
  signInAs,
  signInPage,
  useJourney,
} from '../support/pages.ts';

const email = 'client@demo.test';
const newPassword = 'ResetPass789!';

describe('forgot password', () => {
  const j = useJourney();

  it('resets the password with the mailed link', async () => {
    const { page } = j;

    // --- Ask for a reset link from the sign-in page ---
    await signInPage.open(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expectPath(page, '/forgot-password');
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Submit' }).click();

    const sent = modal(page, 'Verification Email Sent');
    await sent.waitFor();
    await sent
      .getByText(
        `A verification email has been sent to ${email}. Please click the link in the email to reset your password.`,
      )
      .waitFor();
    await snap(page, 'reset-email-sent');

    // --- Follow the link from the outbox and set a new password ---
    const link = await lastMailLink(j.url, email, '/reset-password');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set New Password' }).waitFor();
    await page.getByRole('textbox', { name: 'New Password' }).fill(newPassword);
    await page.getByRole('button', { name: 'Submit' }).click();

    const done = modal(page, 'Successful');
    await done.waitFor();
    await done.getByText('Password Updated').waitFor();
    await done
      .getByText('Your new password has been set successfully. Please click the button below to login')
      .waitFor();
    await snap(page, 'reset-password-updated');
    await done.getByRole('button', { name: 'Login' }).click();
    await expectPath(page, '/');

    // --- The old password no longer works, the new one does ---
    await signInPage.submitWith(page, email, DEMO_PASSWORD);
    await expectToast(page, 'Invalid Credentials');
    expect(pathOf(page)).toBe('/');

    await signInAs(page, email, newPassword);

    // --- The link works once ---
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New Password' }).fill('Another-pass-1');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'This link is invalid or has expired. Please request a new one.');
    expect(await modal(page, 'Successful').count()).toBe(0);
  });
});
