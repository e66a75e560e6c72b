import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { newPage, snap } from '../support/browser.ts';
import { dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

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
interface History {
  data: Array<{ id: number; status: string; amount: string }>;
}

describe('four-eyes approval of a withdrawal', () => {
  const j = useJourney();

  it('one admin sends the payout for approval, a second admin approves it, and only then is it paid', async () => {
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const settings = await admin.call('PUT', '/admin/approvals/settings', { withdrawal: '100' });
    expect(settings.status).toBe(200);
    const second = await admin.call('POST', '/admin/users', {
      fullName: 'Sam Second',
      email: 'second.admin@demo.test',
      password: 'Second12345!',
      roleId: 1,
      whitelist: '',
      isEmailVerified: true,
      isActive: true,
    });
    expect(second.status).toBe(201);

    const client = new ApiSession(j.url);
    await client.signIn('client@demo.test');
    const wallet = (await client.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.mode === 'real')!;
    expect(
      (await client.call('POST', '/withdraws/bank', { ...BANK, balance_id: wallet.id, amount: '300' })).status,
    ).toBe(200);
    const held = (await client.call<History>('GET', '/withdraws/history')).json.data[0];
    expect(held.status).toBe('pending');

    // The first admin approves on Pending Withdraws: it is sent for approval, not paid.
    const first = j.page;
    await signInAs(first, 'admin@demo.test');
    await first.goto('/admin/withdraws/pending');
    const row = dataTable.row(first, /client@demo\.test/).first();
    await row.getByRole('button', { name: 'Approve' }).click();
    await first
      .locator('.mantine-Popover-dropdown')
      .filter({ hasText: /Are you sure/ })
      .getByRole('button', { name: 'Yes' })
      .click();
    await expectToast(first, /Sent for approval/);
    await snap(first, 'approvals-sent');
    expect((await client.call<History>('GET', '/withdraws/history')).json.data[0].status).toBe('pending');

    // On Approvals the request is there, but it is the first admin's own: no Approve for them.
    await first.goto('/admin/approvals');
    await first
      .getByText(/Pay out withdrawal #/)
      .first()
      .waitFor();
    await first.getByRole('button', { name: 'View' }).first().click();
    const own = first.getByRole('dialog');
    await own.getByText(/Your own request/).waitFor();
    expect(await own.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await snap(first, 'approvals-own-request');

    // The second admin, in a browser of their own, reviews before and after and approves.
    const other = await newPage(j.context.browser()!, j.url);
    try {
      await signInAs(other.page, 'second.admin@demo.test', 'Second12345!');
      await other.page.goto('/admin/approvals');
      await other.page.getByRole('button', { name: 'Review' }).first().click();
      const dialog = other.page.getByRole('dialog');
      await dialog.getByRole('table', { name: 'Before and after' }).waitFor();
      await dialog.getByText(/Admin/).first().waitFor();
      await snap(other.page, 'approvals-review');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expectToast(other.page, /Approved: the action is done/);
      await other.page.locator('.mantine-SegmentedControl-root').getByText('Approved').click();
      await other.page
        .getByText(/Pay out withdrawal #/)
        .first()
        .waitFor();
      await snap(other.page, 'approvals-approved');
    } finally {
      await other.context.close();
    }

    await expect
      .poll(async () => (await client.call<History>('GET', '/withdraws/history')).json.data[0].status)
      .toBe('approved');
    const notes = await admin.call<{ data: Array<{ title: string }> }>('GET', '/notifications');
    expect(notes.json.data.some((n) => n.title === 'Request approved')).toBe(true);
  });
});
