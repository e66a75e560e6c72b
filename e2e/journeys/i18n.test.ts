import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snap } from '../support/browser.ts';
import { chooseLanguage, signInPage, useJourney } from '../support/pages.ts';

/** What the sign-in page must say in a language (texts from the shipped translations). */
async function expectSignInIn(
  page: Page,
  t: { title: string; subtitle: string; email: string; password: string; remember: string; forgot: string },
) {
  await page.getByRole('heading', { name: t.title, exact: true }).waitFor();
  await page.getByText(t.subtitle, { exact: true }).waitFor();
  await page.getByRole('textbox', { name: t.email, exact: true }).waitFor();
  await page.getByRole('textbox', { name: t.password, exact: true }).waitFor();
  await page.getByRole('checkbox', { name: t.remember, exact: true }).waitFor();
  await page.getByRole('link', { name: t.forgot, exact: true }).waitFor();
  await page.getByRole('button', { name: t.title, exact: true }).waitFor();
}

const spanish = {
  title: 'Iniciar sesión',
  subtitle: '¡Bienvenido de nuevo! Inicia sesión en tu cuenta.',
  email: 'Correo electrónico',
  password: 'Contraseña',
  remember: 'Recordarme',
  forgot: '¿Olvidaste tu contraseña?',
};
const english = {
  title: 'Sign In',
  subtitle: 'Welcome back! Please sign in to your account.',
  email: 'Email',
  password: 'Password',
  remember: 'Remember Me',
  forgot: 'Forgot password?',
};

const storedLang = (page: Page) => page.evaluate(() => localStorage.getItem('lang'));

describe('language switcher', () => {
  const j = useJourney();

  it('switches the sign-in page to Spanish, keeps it after a reload, and back to English', async () => {
    const { page } = j;
    await signInPage.open(page);
    await expectSignInIn(page, english);
    expect(await page.getByRole('button', { name: 'Language' }).textContent()).toBe('EN');

    await chooseLanguage(page, 'Español');
    await expectSignInIn(page, spanish);
    expect(await page.getByRole('button', { name: 'Idioma' }).textContent()).toBe('ES');
    expect(await storedLang(page)).toBe('es');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    // No English left behind on the card.
    expect(await page.getByText('Welcome back! Please sign in to your account.').count()).toBe(0);
    await snap(page, 'i18n-sign-in-spanish');

    await page.reload();
    await expectSignInIn(page, spanish);
    expect(await storedLang(page)).toBe('es');

    await chooseLanguage(page, 'English');
    await expectSignInIn(page, english);
    expect(await storedLang(page)).toBe('en');
    expect(await page.getByText(spanish.subtitle).count()).toBe(0);
  });
});
