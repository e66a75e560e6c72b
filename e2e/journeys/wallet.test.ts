import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import { signInAs, topBar, topBarStat, useJourney } from '../support/pages.ts';

describe('wallet switcher', () => {
  const j = useJourney();

  it('switches the client from the demo to the real wallet', async () => {
    const { page } = j;
    await signInAs(page, 'client@demo.test');

    // The demo wallet is active after seeding.
    const switcher = topBar(page).getByRole('button', { name: /^(Demo|Real) USD$/ });
    await expect.poll(() => switcher.textContent()).toBe('DemoUSD');
    await expect.poll(() => topBarStat(page, 'Balance').textContent()).toBe('$10,000.00');

    await switcher.click();
    const menu = page.getByRole('menu');
    await menu.getByText('Switch account').waitFor();
    const demo = menu.getByRole('menuitem', { name: /Demo/ });
    const real = menu.getByRole('menuitem', { name: /Real/ });
    expect(await demo.isDisabled()).toBe(true);
    expect(await real.textContent()).toContain('USD · $5,000.00');
    await snap(page, 'wallet-switch-menu');

    // Switching reloads the page: a marker left on window is gone afterwards.
    await page.evaluate(() => Object.assign(window, { __beforeSwitch: true }));
    const reloaded = page.waitForEvent('load');
    await real.click();
    await reloaded;
    await expect.poll(() => page.evaluate(() => '__beforeSwitch' in window)).toBe(false);

    await expect.poll(() => switcher.textContent()).toBe('RealUSD');
    await expect.poll(() => topBarStat(page, 'Balance').textContent()).toBe('$5,000.00');
    await expect.poll(() => topBarStat(page, 'Free Margin').textContent()).toBe('$5,000.00');
    await snap(page, 'wallet-real-active');

    // The choice is the server's: a new visit still shows the real wallet.
    await page.goto('/dashboard');
    await expect.poll(() => topBarStat(page, 'Balance').textContent()).toBe('$5,000.00');
  });
});
