import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiSession, lastMailLink } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { chooseOption, expectPath, expectToast, modal, signInAs, useJourney } from '../support/pages.ts';

/** A 1×1 PNG on disk, for the browser's file inputs. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const pngFile = () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-upload-')), 'receipt.png');
  fs.writeFileSync(file, PNG);
  return file;
};

interface Me {
  isKyc: boolean;
  user: { id: number; pricing_table_id: number | null; balances: Array<{ id: number; mode: string; balance: string }> };
}
const real = async (api: ApiSession) =>
  (await api.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.mode === 'real')!;
const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

const planChooser = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Choose your plan' });

/** Picks a file in a file field the way a person does: click it, choose in the file dialog. */
async function attach(page: Page, label: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  // A required field's label ends with its asterisk.
  await page.getByLabel(new RegExp(`^${label}\\b`)).click();
  await (await chooser).setFiles(pngFile());
}

/** Signs up and verifies a new client over the API, as the sign-up journey does in the browser. */
async function newClient(url: string, name: string): Promise<{ email: string; password: string; api: ApiSession }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}@example.test`;
  const password = 'Newcomer123!';
  const api = new ApiSession(url);
  const res = await api.call('POST', '/auth/signup', {
    fullName: name,
    email,
    password,
    passwordConfirmation: password,
    phone: '+44 20 7946 0456',
    birthDate: '1990-07-08',
    country: 'United Kingdom',
    city: 'York',
    address: '5 Stonegate',
    postalCode: 'YO1 8AW',
    currency: 'USD',
  });
  expect(res.status).toBe(201);
  const link = await lastMailLink(url, email, '/verify-email');
  expect(
    (await api.call('POST', '/auth/verify-email', { token: new URL(link).searchParams.get('token') })).status,
  ).toBe(200);
  await api.signIn(email, password);
  return { email, password, api };
}

describe('a client funds, withdraws, verifies and picks a plan', () => {
  const j = useJourney();

  it('chooses a plan in the forced modal, submits KYC, is declined, resubmits and is approved', async () => {
    const { email, password, api } = await newClient(j.url, 'Kim Kyc');
    const { page } = j;
    await signInAs(page, email, password);

    // No plan yet: the plan chooser covers the dashboard and cannot be closed.
    const chooser = planChooser(page);
    await chooser.waitFor();
    await page.keyboard.press('Escape');
    await chooser.waitFor();
    await snap(page, 'money-forced-plan');
    // Silver costs 250 and the real wallet is empty: the client is sent to fund it.
    await chooser
      .getByTestId(/^plan-/)
      .filter({ hasText: 'Silver' })
      .getByRole('button', { name: 'Get Started' })
      .click();
    const pay = page.getByTestId('plan-confirm').getByRole('button', { name: /^Pay / });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await pay.click();
    await expectPath(page, '/deposits');
    await expectToast(page, 'Not enough balance');
    await page.goto('/dashboard');
    // A subscription is confirmed first (a free plan costs nothing), then a toast says it is active.
    await planChooser(page)
      .getByTestId(/^plan-/)
      .filter({ hasText: 'Basic' })
      .getByRole('button', { name: 'Get Started' })
      .click();
    await page.getByTestId('plan-confirm').getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'You are now on the Basic plan.');
    await expect.poll(async () => (await api.call<Me>('GET', '/auth/user')).json.user.pricing_table_id).not.toBeNull();
    // On the demo wallet a new client starts on, trading needs no KYC: no banner.
    await page.getByTestId('pricing-plan-panel').waitFor();
    expect(await page.getByTestId('kyc-banner').count()).toBe(0);
    // The chooser closes with its transition.
    await expect.poll(() => planChooser(page).count()).toBe(0);

    // KYC: passport with a front page.
    await page.goto('/kyc');
    await chooseOption(page, 'Document Type', 'Passport');
    await attach(page, 'Front');
    await snap(page, 'money-kyc-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('kyc-submitted').getByText('Pending').waitFor();

    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const docs = await admin.call<{ data: Array<{ id: number }> }>(
      'GET',
      `/admin/kyc/api?search=${encodeURIComponent(email)}`,
    );
    expect(
      (
        await admin.call('POST', `/admin/kyc/${docs.json.data[0].id}/decline`, {
          declineReason: 'The photo is blurred',
        })
      ).status,
    ).toBe(200);
    // The decision reaches the open page live, as a toast.
    await expectToast(page, 'KYC declined');
    await page.reload();
    await page.getByText('The photo is blurred').waitFor();
    await snap(page, 'money-kyc-declined');

    await page.getByRole('button', { name: 'Resubmit' }).click();
    await attach(page, 'Front');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('kyc-submitted').getByText('Pending').waitFor();
    const again = await admin.call<{ data: Array<{ id: number }> }>(
      'GET',
      `/admin/kyc/api?search=${encodeURIComponent(email)}`,
    );
    expect((await admin.call('POST', `/admin/kyc/${again.json.data[0].id}/approve`)).status).toBe(200);
    await expectToast(page, 'KYC approved');
    expect((await api.call<Me>('GET', '/auth/user')).json.isKyc).toBe(true);
  });

  it('deposits by bank with a proof and through the sandbox card (approved and declined), then withdraws', async () => {
    const { page } = j;
    const api = new ApiSession(j.url);
    await api.signIn('client@demo.test');
    const before = await real(api);
    await signInAs(page, 'client@demo.test');

    // Bank transfer: the details to pay to, then "Sent From" with the proof; it ends as submitted (pending).
    await page.goto('/deposits');
    await chooseOption(page, 'Gateway', 'Bank');
    await textbox(page, 'Amount (USD)').fill('300');
    await snap(page, 'money-deposit-form');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page.getByTestId('bank-details').getByText('GB33BUKB20201555555555').waitFor();
    await textbox(page, 'Bank Name').fill('Barclays');
    await textbox(page, 'Account Number').fill('12345678');
    await attach(page, 'Proof');
    await snap(page, 'money-bank-deposit');
    await page.getByRole('button', { name: 'Submit' }).click();
    await modal(page, 'Deposit Submitted').waitFor();
    await page.keyboard.press('Escape');

    // Sandbox card, approved: 100 plus 2.5 % fee paid, 100 credited.
    await chooseOption(page, 'Gateway', 'Sandbox Card');
    await textbox(page, 'Amount (USD)').fill('100');
    await page.getByTestId('deposit-summary').getByText('$102.50').waitFor();
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page
      .getByTestId('sandbox-amount')
      .getByText(/\$102\.50/)
      .waitFor();
    await snap(page, 'money-sandbox-page');
    await page.getByRole('button', { name: 'Approve' }).click();
    const success = modal(page, 'Deposit Successful');
    await success.getByTestId('deposit-result-amount').getByText('$100.00').waitFor();
    await snap(page, 'money-deposit-successful');
    expect(Number((await real(api)).balance) - Number(before.balance)).toBeCloseTo(100, 8);
    await page.keyboard.press('Escape');

    // Sandbox card, declined: nothing credited.
    await chooseOption(page, 'Gateway', 'Sandbox Card');
    await textbox(page, 'Amount (USD)').fill('50');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page.getByRole('button', { name: 'Decline' }).click();
    await modal(page, 'Deposit Failed').waitFor();
    expect(Number((await real(api)).balance) - Number(before.balance)).toBeCloseTo(100, 8);
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('deposits-history').getByText('Declined').waitFor();
    await snap(page, 'money-deposit-history');

    // Withdraw 75 to the client's own bank account: held at once.
    await page.goto('/withdraws');
    await textbox(page, 'Amount (USD)').fill('75');
    await textbox(page, 'Bank Name').fill('Barclays');
    await textbox(page, 'Account Number').fill('GB29NWBK60161331926819');
    await textbox(page, 'Swift Code').fill('NWBKGB2L');
    await chooseOption(page, 'Bank Country', 'United Kingdom', { type: 'United King' });
    await page.getByTestId('withdraw-summary').getByText('$75.00').first().waitFor();
    await snap(page, 'money-withdraw-form');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expectToast(page, /Withdrawal request submitted/);
    expect(Number((await real(api)).balance) - Number(before.balance)).toBeCloseTo(25, 8);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('withdraws-history').getByText('Pending').waitFor();
    await snap(page, 'money-withdraw-history');
  });
});
