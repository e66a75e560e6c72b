import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

/** A 1×1 PNG: what a phone photo of a transfer receipt is to the server. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const BANK = {
  bank_name: 'Barclays',
  account_name: 'Chris Client',
  account_number: 'GB29NWBK60161331926819',
  swift_code: 'NWBKGB2L',
  bank_country: 'United Kingdom',
};

interface Me {
  user: { id: number; balances: Array<{ id: number; mode: string; balance: string }> };
}
const realWallet = async (api: ApiSession) =>
  (await api.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.mode === 'real')!;

/** Clicks a row action and confirms its popover with Yes (typing a reason first when one is asked). */
async function confirmRowAction(page: Page, rowText: string | RegExp, action: 'Approve' | 'Decline', reason?: string) {
  const row = dataTable.row(page, rowText);
  await row.getByRole('button', { name: action }).click();
  const dialog = page.locator('.mantine-Popover-dropdown').filter({ hasText: /Are you sure/ });
  if (reason !== undefined) await dialog.getByRole('textbox').fill(reason);
  await dialog.getByRole('button', { name: 'Yes' }).click();
}

describe('staff review money and papers', () => {
  const j = useJourney();

  it('approves a bank deposit with its proof once: the wallet, the history and the client are told', async () => {
    const client = new ApiSession(j.url);
    await client.signIn('client@demo.test');
    const wallet = await realWallet(client);
    const made = await client.call<{ id: number; paymentLink: string }>('POST', '/deposits', {
      balance_id: wallet.id,
      amount: '250',
      gateway: 'bank',
    });
    expect(made.status).toBe(200);
    const proof = await client.upload(
      'PUT',
      `/deposits/bank/${made.json.id}`,
      { bank_name: 'Barclays', account_name: 'x', account_number: '12345678' },
      { proof: { data: PNG, name: 'receipt.png', type: 'image/png' } },
    );
    expect(proof.status).toBe(200);

    const mine = await client.call<{ data: Array<{ id: number; reference: string }> }>(
      'GET',
      '/deposits/history?page=1&limit=15',
    );
    const reference = mine.json.data.find((d) => d.id === made.json.id)!.reference;

    await signInAs(j.page, 'admin@demo.test');
    await j.page.goto('/admin/deposits');
    const row = dataTable.row(j.page, reference);
    await expect.poll(() => row.getByText('Pending').count()).toBe(1);
    await expect.poll(() => row.getByRole('link', { name: /View/ }).count()).toBeGreaterThan(0);
    await snap(j.page, 'money-admin-deposits-pending');
    await confirmRowAction(j.page, reference, 'Approve');
    await expectToast(j.page, 'Deposit approved successfully');
    await expect.poll(() => row.getByText('Approved').count()).toBe(1);
    await snap(j.page, 'money-admin-deposits-approved');

    const after = await realWallet(client);
    expect(Number(after.balance) - Number(wallet.balance)).toBeCloseTo(250, 8);
    const again = await new ApiSession(j.url).call('POST', `/admin/deposits/${made.json.id}/approve`);
    expect(again.status).toBe(401);
    const notes = await client.call<{ data: Array<{ title: string }> }>('GET', '/notifications');
    expect(notes.json.data[0].title).toBe('Deposit approved');
    const history = await client.call<{ data: Array<{ id: number; status: string; balance_after: string }> }>(
      'GET',
      '/deposits/history?page=1&limit=15',
    );
    expect(history.json.data.find((d) => d.id === made.json.id)).toMatchObject({
      status: 'approved',
      balance_after: after.balance,
    });
  });

  it('declines a withdrawal with a reason (the money comes back), then approves the next one', async () => {
    const client = new ApiSession(j.url);
    await client.signIn('client@demo.test');
    const wallet = await realWallet(client);
    expect(
      (await client.call('POST', '/withdraws/bank', { ...BANK, balance_id: wallet.id, amount: '100' })).status,
    ).toBe(200);
    expect(Number((await realWallet(client)).balance)).toBeCloseTo(Number(wallet.balance) - 100, 8);

    await signInAs(j.page, 'admin@demo.test');
    await j.page.goto('/admin/withdraws/pending');
    await dataTable
      .row(j.page, /client@demo\.test/)
      .first()
      .waitFor();
    await snap(j.page, 'money-admin-withdraws-pending');
    await confirmRowAction(j.page, /client@demo\.test/, 'Decline', 'The account name does not match');
    await expectToast(j.page, 'Withdraw declined successfully');
    expect(Number((await realWallet(client)).balance)).toBeCloseTo(Number(wallet.balance), 8);
    const declined = await client.call<{ data: Array<{ status: string; decline_reason: string }> }>(
      'GET',
      '/withdraws/history',
    );
    expect(declined.json.data[0]).toMatchObject({
      status: 'declined',
      decline_reason: 'The account name does not match',
    });

    expect(
      (await client.call('POST', '/withdraws/bank', { ...BANK, balance_id: wallet.id, amount: '40' })).status,
    ).toBe(200);
    await j.page.reload();
    await confirmRowAction(j.page, /client@demo\.test/, 'Approve');
    await expectToast(j.page, 'Withdraw approved successfully');
    await j.page.goto('/admin/withdraws/history');
    await dataTable.row(j.page, 'The account name does not match').waitFor();
    await snap(j.page, 'money-admin-withdraws-history');
    const approved = await client.call<{ data: Array<{ status: string }> }>('GET', '/withdraws/history');
    expect(approved.json.data[0].status).toBe('approved');
    expect(Number((await realWallet(client)).balance)).toBeCloseTo(Number(wallet.balance) - 40, 8);
  });

  it('keeps managers to their screens and customers out of staff money calls', async () => {
    const client = new ApiSession(j.url);
    await client.signIn('client@demo.test');
    expect((await client.call('GET', '/admin/deposits/api/history')).status).toBe(403);
    const manager = new ApiSession(j.url);
    await manager.signIn('manager@demo.test');
    expect((await manager.call('GET', '/admin/deposits/api/history')).status).toBe(200);
    expect((await manager.call('GET', '/admin/gateways')).status).toBe(403);
    expect((await manager.call('GET', '/admin/kyc/api')).status).toBe(403);
  });
});
