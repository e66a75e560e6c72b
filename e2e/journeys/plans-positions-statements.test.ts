import { describe, expect, it } from 'vitest';
import { ApiSession, lastMailLink } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { chooseOption, expectToast, signInAs, useJourney } from '../support/pages.ts';

const CLIENT = 'client@demo.test';
const PHONE = { width: 390, height: 844 };

interface Me {
  user: { balances: Array<{ id: number; mode: string; currency: string; balance: string }> };
  activeBalance: { id: number } | null;
}

/** Opens and closes a 1,000 EUR/USD buy on the session's active wallet; returns its id. */
async function closedTrade(api: ApiSession): Promise<number> {
  const placed = await api.call<{ order: { id: number } }>('POST', '/dashboard/orders', {
    type: 'buy',
    instrument: 'EUR_USD',
    amount: 1000,
    profit: null,
    loss: null,
  });
  expect(placed.status).toBe(200);
  const closed = await api.call('POST', '/dashboard/orders/close', {
    orderId: placed.json.order.id,
    instrument: 'EUR_USD',
  });
  expect(closed.status).toBe(200);
  return placed.json.order.id;
}

describe('plans, phone positions and statements by wallet', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('shows a EUR customer plan prices in euros, charges only after a confirmation of that amount, and says so', async () => {
    const email = `euro-${Date.now()}@example.test`;
    const password = 'EuroPlan123!';
    const api = new ApiSession(j.url);
    const signup = await api.call('POST', '/auth/signup', {
      fullName: 'Elena Euro',
      email,
      password,
      passwordConfirmation: password,
      phone: '+33 1 23 45 67 89',
      birthDate: '1990-05-06',
      country: 'France',
      city: 'Paris',
      address: '1 Rue de Rivoli',
      postalCode: '75001',
      currency: 'EUR',
    });
    expect(signup.status).toBe(201);
    const link = await lastMailLink(j.url, email, '/verify-email');
    expect(
      (await api.call('POST', '/auth/verify-email', { token: new URL(link).searchParams.get('token') })).status,
    ).toBe(200);
    await api.signIn(email, password);
    const real = (await api.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.mode === 'real')!;
    expect(real.currency).toBe('EUR');
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const funded = await admin.call('PUT', `/admin/balance/${real.id}`, {
      amount: '1000',
      type: 'add',
      reason: 'Funding for the plan',
    });
    expect(funded.status).toBe(200);

    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, email, password);
    // No plan yet: the plan chooser covers the dashboard, with prices in the wallet's currency.
    const chooser = page.getByRole('dialog').filter({ hasText: 'Choose your plan' });
    await chooser.waitFor();
    const silver = chooser.locator('[data-testid^="plan-"]').filter({ hasText: 'Silver' });
    const price = silver.getByTestId('plan-price');
    await expect.poll(() => price.textContent()).toMatch(/^€\d+\.\d\d$/);
    expect(await silver.textContent()).toMatch(/\$250\.00 at 1 EUR = [\d.]+ USD/);

    await silver.getByRole('button', { name: 'Get Started' }).click();
    const confirm = page.getByTestId('plan-confirm');
    await confirm.waitFor();
    // The dialog reads the price at the current rate again; Pay is enabled once it has.
    const pay = confirm.getByRole('button', { name: /^Pay / });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    const amount = (await confirm.getByTestId('plan-confirm-amount').textContent())!;
    expect(amount).toMatch(/^€\d+\.\d\d$/);
    expect(await confirm.textContent()).toContain(`${amount} will be charged once from your real EUR wallet.`);
    // Nothing is charged before the confirmation.
    const before = (await api.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.id === real.id)!;
    expect(Number(before.balance)).toBe(1000);
    await snap(page, 'issue20-plan-confirm-1440');

    expect(await pay.textContent()).toBe(`Pay ${amount}`);
    await pay.click();
    await expectToast(page, 'You are now on the Silver plan.');
    await chooser.waitFor({ state: 'detached' });
    // Exactly the confirmed amount left the wallet.
    const after = (await api.call<Me>('GET', '/auth/user')).json.user.balances.find((b) => b.id === real.id)!;
    expect(Number(after.balance).toFixed(2)).toBe((1000 - Number(amount.slice(1))).toFixed(2));

    await page.goto('/pricing');
    const current = page.locator('[data-testid^="plan-"]').filter({ hasText: 'Silver' });
    await expect.poll(() => current.getByRole('button').last().textContent()).toBe('Current Plan');
    await snap(page, 'issue20-pricing-1440');
  });

  it('shows open positions on a phone as cards with live P/L inside the screen', async () => {
    const api = new ApiSession(j.url);
    await api.signIn(CLIENT);
    const placed = await api.call<{ order: { id: number } }>('POST', '/dashboard/orders', {
      type: 'sell',
      instrument: 'EUR_USD',
      amount: 1000,
      profit: null,
      loss: null,
    });
    expect(placed.status).toBe(200);
    const id = placed.json.order.id;

    const { page } = j;
    await page.setViewportSize(PHONE);
    await signInAs(page, CLIENT);
    const card = page.getByTestId(`position-${id}`);
    await card.scrollIntoViewIfNeeded();
    await card.waitFor();
    // Forex trades in lots: 1,000 units are a micro lot.
    await expect.poll(() => card.getByTestId(`amount-${id}`).textContent()).toBe('0.01 lot');
    const text = (await card.textContent())!;
    for (const part of ['EUR/USD', 'SELL', 'Amount', 'Open Rate', 'Current Price', 'P/L', `#${id}`])
      expect(text).toContain(part);
    const pl = card.getByTestId(`pl-${id}`);
    await expect.poll(() => pl.textContent()).toMatch(/^-?\$\d/);
    const current = card.getByTestId(`current-${id}`);
    await expect.poll(() => current.textContent()).toMatch(/^\d\.\d{5}$/);
    // Everything fits: P/L and the close button end inside the 390 px screen.
    for (const part of [pl, card.getByRole('button', { name: 'Close', exact: true })]) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await snap(page, 'issue20-positions-390');

    await card.getByRole('button', { name: 'Close', exact: true }).click();
    await expectToast(page, 'Order Closed Successfully');
    await card.waitFor({ state: 'detached' });
  });

  it('lets the client choose the wallet a statement covers, names it, and exports that wallet', async () => {
    const api = new ApiSession(j.url);
    await api.signIn(CLIENT);
    const me = (await api.call<Me>('GET', '/auth/user')).json;
    const demo = me.user.balances.find((b) => b.mode === 'demo')!;
    const real = me.user.balances.find((b) => b.mode === 'real')!;
    expect(me.activeBalance?.id).toBe(demo.id);
    const onDemo = await closedTrade(api);

    const { page } = j;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, CLIENT);
    await page.goto('/statements');
    await page.getByText(`Closed trades of your USD Demo wallet #${demo.id}.`).waitFor();
    const exportLink = page.getByRole('link', { name: 'Export' });
    expect(await exportLink.getAttribute('href')).toBe(`/api/statements/export?walletId=${demo.id}`);
    await page.getByRole('row').filter({ hasText: 'EUR/USD' }).first().waitFor();
    await snap(page, 'issue20-statements-1440');

    await chooseOption(page, 'Wallet', `USD Real wallet #${real.id}`);
    await page.getByText(`Closed trades of your USD Real wallet #${real.id}.`).waitFor();
    await expect.poll(() => exportLink.getAttribute('href')).toBe(`/api/statements/export?walletId=${real.id}`);
    // The export follows the choice: the demo trade is in the demo wallet's file only.
    const csvOf = async (walletId: number) => {
      const res = await page.request.get(`/api/statements/export?walletId=${walletId}`);
      expect(res.status()).toBe(200);
      return res.text();
    };
    expect(await csvOf(demo.id)).toContain(`\r\n${onDemo},`);
    expect(await csvOf(real.id)).not.toContain(`\r\n${onDemo},`);

    await page.setViewportSize(PHONE);
    await chooseOption(page, 'Wallet', `USD Demo wallet #${demo.id} (active)`);
    const card = page.getByTestId(`statement-card-${onDemo}`);
    await card.waitFor();
    const box = (await card.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await snap(page, 'issue20-statements-390');
  });
});
