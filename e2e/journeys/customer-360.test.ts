import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { adminTitle, dataTable, signInAs, useJourney } from '../support/pages.ts';

/** A 1×1 PNG: the photo of an ID the customers send for KYC. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** Four customers named "Kip360 …": their real wallet's funding, and whether their KYC waits for review. */
const CUSTOMERS = [
  { name: 'Kip360 Amber', funding: '1200', pending: true },
  { name: 'Kip360 Basil', funding: '400', pending: true },
  { name: 'Kip360 Cyril', funding: '3000', pending: true },
  { name: 'Kip360 Delia', funding: '9000', pending: false },
];

describe('Customer 360', () => {
  const j = useJourney();

  it('lists the customers whose KYC waits for review, sorted by equity on the server', async () => {
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    for (const c of CUSTOMERS) {
      const email = `${c.name.toLowerCase().replace(' ', '.')}@example.test`;
      const created = await admin.call<{ id: number }>('POST', '/admin/customers', {
        fullName: c.name,
        email,
        password: 'KipPass12345',
        isEmailVerified: true,
        isActive: true,
      });
      expect(created.status).toBe(201);
      const detail = await admin.call<{ balances: Array<{ id: number; mode: string }> }>(
        'GET',
        `/admin/share/users/${created.json.id}`,
      );
      const real = detail.json.balances.find((b) => b.mode === 'real')!;
      const funded = await admin.call('PUT', `/admin/balance/${real.id}`, {
        amount: c.funding,
        type: 'add',
        reason: 'Journey funding',
      });
      expect(funded.status).toBe(200);
      // The customer sends a passport photo; Delia's is approved at once, the others wait for review.
      const customer = new ApiSession(j.url);
      await customer.signIn(email, 'KipPass12345');
      const sent = await customer.upload(
        'POST',
        '/kyc',
        { type: 'passport' },
        { front: { data: PNG, name: 'id.png', type: 'image/png' } },
      );
      expect(sent.status, JSON.stringify(sent.json)).toBe(200);
      if (!c.pending) {
        const docs = await admin.call<{ data: Array<{ id: number }> }>(
          'GET',
          `/admin/kyc/api?search=${encodeURIComponent(email)}`,
        );
        expect((await admin.call('POST', `/admin/kyc/${docs.json.data[0].id}/approve`)).status).toBe(200);
      }
    }

    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/customers/all');
    await expect.poll(() => adminTitle(page).textContent()).toBe('All Customers');
    await dataTable.rows(page).first().waitFor();
    await dataTable.search(page).fill('Kip360');
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(4);

    // Filters: KYC pending, sorted by equity (largest first).
    await page.getByRole('button', { name: 'Filters' }).click();
    const panel = page.getByRole('group', { name: 'Customer filters' });
    await panel.getByRole('combobox', { name: 'KYC' }).click();
    await page.getByRole('option', { name: 'Pending' }).click();
    await panel.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Equity', exact: true }).click();
    await panel.getByRole('button', { name: 'Apply' }).click();
    // The FULL NAME cell of each row (the second column), in the order shown.
    const names = () =>
      dataTable.rows(page).evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent?.trim()));
    await expect.poll(names, { timeout: 10_000 }).toEqual(['Kip360 Cyril', 'Kip360 Amber', 'Kip360 Basil']);
    const cyril = dataTable.row(page, 'Kip360 Cyril');
    await cyril.getByText('$3,000.00').first().waitFor();
    await cyril.getByText('Pending').waitFor();
    await snap(page, 'customer-360-kyc-pending-by-equity');

    // The EQUITY header's second click asks the server for the smallest first.
    await page.getByRole('columnheader', { name: 'EQUITY' }).getByRole('button').click();
    await expect.poll(names, { timeout: 10_000 }).toEqual(['Kip360 Basil', 'Kip360 Amber', 'Kip360 Cyril']);
  });
});
