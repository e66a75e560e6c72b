import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { ARTIFACTS, snap } from '../support/browser.ts';
import { signInAs, useJourney } from '../support/pages.ts';

const CLIENT = 'client@demo.test';
const ADMIN = 'admin@demo.test';

interface Me {
  user: { id: number; balances: Array<{ id: number; mode: string }> };
  activeBalance: { id: number } | null;
}

describe('account statements as PDF and XLSX, and stop-out reports', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('lets the client download the statement of a wallet and read the Stop-outs tab; staff get the same', async () => {
    const api = new ApiSession(j.url);
    await api.signIn(CLIENT);
    const me = (await api.call<Me>('GET', '/auth/user')).json;
    const walletId = me.activeBalance?.id as number;
    const placed = await api.call<{ order: { id: number } }>('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: 1000,
      profit: null,
      loss: null,
    });
    expect(placed.status).toBe(200);
    expect((await api.call('POST', '/dashboard/orders/close', { orderId: placed.json.order.id })).status).toBe(200);

    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, CLIENT);
    await page.goto('/statements');
    await page.getByRole('row').filter({ hasText: 'EUR/USD' }).first().waitFor();
    const pdfLink = page.getByRole('link', { name: 'PDF' });
    expect(await pdfLink.getAttribute('href')).toBe(`/api/statements/export?walletId=${walletId}&format=pdf`);
    expect(await page.getByRole('link', { name: 'XLSX' }).getAttribute('href')).toBe(
      `/api/statements/export?walletId=${walletId}&format=xlsx`,
    );
    await snap(page, 'issue23-statements-1440');
    const pdf = await page.request.get(`/api/statements/export?walletId=${walletId}&format=pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Kept beside the screenshots, to render (pdftoppm) and look at.
    fs.writeFileSync(path.join(ARTIFACTS, 'issue23-statement-demo-wallet.pdf'), await pdf.body());
    const xlsx = await page.request.get(`/api/statements/export?walletId=${walletId}&format=xlsx`);
    expect(xlsx.status()).toBe(200);
    expect((await xlsx.body()).subarray(0, 2).toString('latin1')).toBe('PK');

    await page.getByRole('tab', { name: 'Stop-outs' }).click();
    await page.getByTestId('stopout-reports').waitFor();
    await snap(page, 'issue23-statements-stopouts-1440');

    await page.context().clearCookies();
    await signInAs(page, ADMIN);
    await page.goto(`/admin/customers/edit/${me.user.id}`);
    await page.getByRole('tab', { name: 'Statement' }).click();
    const staffPdf = page.getByRole('link', { name: 'PDF' });
    await staffPdf.waitFor();
    const href = (await staffPdf.getAttribute('href')) as string;
    expect(href).toMatch(new RegExp(`^/api/admin/customers/${me.user.id}/statement\\?walletId=\\d+&format=pdf$`));
    await snap(page, 'issue23-customer-statement-1440');
    const staff = await page.request.get(href);
    expect(staff.status()).toBe(200);
    expect(staff.headers()['content-type']).toBe('application/pdf');
  });
});
