import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { lastMailLink } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import {
  chooseOption,
  dismissToasts,
  expectPath,
  expectToast,
  logOut,
  modal,
  openProfileMenu,
  pathOf,
  signInAs,
  signInPage,
  useJourney,
} from '../support/pages.ts';

const newClient = {
  fullName: 'Nina Newcomer',
  email: 'nina.newcomer@example.test',
  password: 'FirstPass123!',
  phone: '+33 1 23 45 67 89',
  birthDate: '1991-06-15',
  country: 'France',
  city: 'Paris',
  address: '12 Rue de Rivoli',
  postalCode: '75001',
  currency: 'EUR',
};

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

describe('sign-up, email verification, profile and password', () => {
  const j = useJourney();

  it('validates the forms before anything is sent', async () => {
    const { page } = j;
    await signInPage.open(page);
    const submit = signInPage.submit(page);
    expect(await submit.isDisabled()).toBe(true);
    await signInPage.email(page).fill('client@demo.test');
    expect(await submit.isDisabled()).toBe(true);
    await signInPage.password(page).fill('Demo12345!');
    expect(await submit.isEnabled()).toBe(true);
    await signInPage.email(page).fill('');
    expect(await submit.isDisabled()).toBe(true);

    await page.getByRole('link', { name: 'Sign Up' }).click();
    await expectPath(page, '/signup');
    // The URL changes a moment before the new page replaces the sign-in form (which has its own Password field).
    await page.getByRole('heading', { name: 'Create an account on Trading Platform' }).waitFor();
    await field(page, 'Password').fill('Secret123!');
    await field(page, 'Confirm Password').fill('Secret123?');
    // Nothing is said before the confirmation has been left...
    expect(await page.getByText('Passwords must match').count()).toBe(0);
    await field(page, 'Confirm Password').blur();
    await page.getByText('Passwords must match').waitFor();
    await snap(page, 'signup-passwords-must-match');
    // ...and it goes away once they match.
    await field(page, 'Confirm Password').fill('Secret123!');
    await field(page, 'Confirm Password').blur();
    await page.getByText('Passwords must match').waitFor({ state: 'detached' });
  });

  it('signs up, verifies the email, edits the profile and changes the password', async () => {
    const { page } = j;

    // --- Sign up with every field ---
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Create an account on Trading Platform' }).waitFor();
    await field(page, 'Full Name').fill(newClient.fullName);
    await field(page, 'Email').fill(newClient.email);
    await field(page, 'Password').fill(newClient.password);
    await field(page, 'Confirm Password').fill(newClient.password);
    await field(page, 'Phone').fill(newClient.phone);
    await field(page, 'Birth Date').fill(newClient.birthDate);
    await field(page, 'Birth Date').press('Escape');
    await chooseOption(page, 'Country', newClient.country, { type: 'Fran' });
    await field(page, 'City').fill(newClient.city);
    await field(page, 'Address').fill(newClient.address);
    await field(page, 'Postal Code').fill(newClient.postalCode);
    await field(page, 'Promo Code (Optional)').fill('');
    await chooseOption(page, 'Currency', newClient.currency);
    expect(await field(page, 'Birth Date').inputValue()).toBe(newClient.birthDate);
    await snap(page, 'signup-form-filled');
    await page.getByRole('button', { name: 'Sign Up' }).click();

    const created = modal(page, 'Account Created');
    await created.waitFor();
    await created
      .getByText(
        `We have sent a verification email to ${newClient.email}. Please click the link in the email to verify your account.`,
      )
      .waitFor();
    await snap(page, 'signup-account-created');
    await created.getByRole('button', { name: 'Sign In' }).click();
    await expectPath(page, '/');

    // --- Not verified yet: sign-in is refused ---
    await signInPage.submitWith(page, newClient.email, newClient.password);
    await expectToast(page, /verify your email/);
    expect(pathOf(page)).toBe('/');

    // --- The mailed link verifies the address ---
    const link = await lastMailLink(j.url, newClient.email, '/verify-email');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email Verification' }).waitFor();
    await page.getByText('Your email address is verified. You can sign in now.').waitFor();
    await snap(page, 'signup-email-verified');

    // --- A new client chooses a plan first (the free one), in the chooser that cannot be dismissed ---
    await signInAs(page, newClient.email, newClient.password);
    const chooser = page.getByRole('dialog').filter({ hasText: 'Choose your plan' });
    await chooser
      .getByTestId(/^plan-/)
      .filter({ hasText: 'Basic' })
      .getByRole('button', { name: 'Get Started' })
      .click();
    // Every plan is confirmed first (a free one costs nothing), then a toast says it is active.
    await page.getByTestId('plan-confirm').getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'You are now on the Basic plan.');
    // On the demo wallet a new client starts on, trading needs no KYC: no banner.
    await page.getByTestId('pricing-plan-panel').waitFor();
    expect(await page.getByTestId('kyc-banner').count()).toBe(0);
    await chooser.waitFor({ state: 'detached' });

    // --- Profile: change the city ---
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Personal Information' }).waitFor();
    expect(await field(page, 'Full Name').inputValue()).toBe(newClient.fullName);
    expect(await field(page, 'City').inputValue()).toBe(newClient.city);
    expect(await page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe(newClient.country);
    await field(page, 'City').fill('Lyon');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Profile updated successfully');
    await snap(page, 'signup-profile-saved');
    await page.reload();
    await page.getByRole('heading', { name: 'Personal Information' }).waitFor();
    await expect.poll(() => field(page, 'City').inputValue()).toBe('Lyon');

    // --- Security: wrong current password, then the right one ---
    await page.goto('/security');
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await field(page, 'Current Password').fill('Not-my-password-9');
    await field(page, 'New Password').fill('SecondPass456!');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expectToast(page, 'Current password is incorrect.');
    // The server's field error also sits under the field.
    await page.locator('.mantine-InputWrapper-error').filter({ hasText: 'Current password is incorrect.' }).waitFor();
    await snap(page, 'signup-security-wrong-password');
    await dismissToasts(page);

    await field(page, 'Current Password').fill(newClient.password);
    await field(page, 'New Password').fill('SecondPass456!');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expectToast(page, 'Password changed successfully');
    // The form is emptied after a change.
    await expect.poll(() => field(page, 'Current Password').inputValue()).toBe('');

    // --- Log out from the profile menu, sign in with the new password ---
    const menu = await openProfileMenu(page);
    await menu.getByText(`Signed in as ${newClient.email}`).waitFor();
    await page.keyboard.press('Escape');
    await logOut(page);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await signInAs(page, newClient.email, 'SecondPass456!');
  });
});
