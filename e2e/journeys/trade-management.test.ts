import { describe, expect, it } from 'vitest';
import { snap } from '../support/browser.ts';
import {
  adminTitle,
  dataTable,
  dismissToasts,
  expectPath,
  expectToast,
  modal,
  sideMenu,
  signInAs,
  useJourney,
} from '../support/pages.ts';

describe('Trade Management', () => {
  // Voiso is the provider saved here: it prices nothing, so no feed tries to reach the real provider.
  const j = useJourney();

  it('changes a spread and an API setting, each with its toast, and both stay saved', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.getByRole('banner').getByRole('link', { name: 'Admin', exact: true }).click();
    await expectPath(page, '/admin');

    // --- Spread Settings: the five inputs start from the settings records ---
    await sideMenu(page).getByRole('link', { name: 'Spread Settings' }).click();
    await expectPath(page, '/admin/spreads');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Spread Settings');
    const forex = page.getByRole('textbox', { name: 'Forex Spread' });
    const commodity = page.getByRole('textbox', { name: 'Commodity Spread' });
    await expect.poll(() => forex.inputValue()).toBe('1');

    // An empty value is refused in the form with the spec's message.
    await commodity.fill('');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Commodity spread is required').waitFor();

    await commodity.fill('1.5');
    await forex.fill('2.5');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Spreads updated successfully');
    await snap(page, 'trade-management-spreads');
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'Forex Spread' }).inputValue()).toBe('2.5');
    await expect.poll(() => page.getByRole('textbox', { name: 'Commodity Spread' }).inputValue()).toBe('1.5');
    await dismissToasts(page);

    // --- Trade APIs: one card per provider ---
    await sideMenu(page).getByRole('link', { name: 'APIs' }).click();
    await expectPath(page, '/admin/apis');
    await expect.poll(() => adminTitle(page).textContent()).toBe('APIs');
    for (const name of ['Polygon', 'EOD Historical Data', 'Oanda', 'Currency API', 'Voiso'])
      await page.getByRole('heading', { name, exact: true }).waitFor();

    // A card without its key is refused with the spec's message.
    const eod = page.getByTestId('api-card-eodAPI');
    await eod.getByRole('button', { name: 'Update' }).click();
    await eod.getByText('API Key is required').waitFor();

    const voiso = page.getByTestId('api-card-voiso');
    await voiso.getByRole('textbox', { name: 'Cluster ID' }).fill('cluster-7');
    await voiso.getByLabel('API Key').fill('voiso-secret-key');
    await voiso.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Voiso updated successfully');
    await snap(page, 'trade-management-apis');
    await page.reload();
    await expect
      .poll(() => page.getByTestId('api-card-voiso').getByRole('textbox', { name: 'Cluster ID' }).inputValue())
      .toBe('cluster-7');
  });

  it('adds, edits and deletes an instrument, and shows lots and API status', async () => {
    const { page } = j;
    await signInAs(page, 'admin@demo.test');
    await page.goto('/admin/instruments/crypto');
    await expect.poll(() => adminTitle(page).textContent()).toBe('Crypto');
    await dataTable.row(page, 'BTC_USD').waitFor();

    await page.getByRole('button', { name: 'Add New' }).click();
    const add = modal(page, 'Add Instrument');
    await add.waitFor();
    await add.getByRole('textbox', { name: 'Instrument Name' }).fill('pepe_usd');
    await add.getByRole('textbox', { name: 'Base' }).fill('PEPE');
    await add.getByRole('textbox', { name: 'Quote' }).fill('USD');
    await add.getByRole('textbox', { name: 'Bid' }).fill('0.00001234');
    await add.getByRole('textbox', { name: 'Ask' }).fill('0.00001240');
    await add.getByRole('combobox', { name: 'Chart Provider' }).fill('BINANCE');
    await add.getByRole('textbox', { name: 'Leverage' }).fill('5');
    await add.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Instrument added successfully');
    await add.waitFor({ state: 'detached' });
    const row = dataTable.row(page, 'PEPE_USD');
    await row.waitFor();
    await snap(page, 'trade-management-instruments');

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = modal(page, 'Edit Instrument');
    await edit.waitFor();
    await edit.getByRole('switch', { name: 'Tradable' }).click({ force: true });
    await edit.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Instrument updated successfully');
    await edit.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'No', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure to delete this pair?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expectToast(page, 'Instrument deleted successfully');
    await row.waitFor({ state: 'detached' });

    await sideMenu(page).getByRole('link', { name: 'Lot Settings' }).click();
    await expectPath(page, '/admin/lots');
    await page.getByRole('textbox', { name: 'Label' }).first().waitFor();
    await snap(page, 'trade-management-lots');

    await sideMenu(page).getByRole('link', { name: 'API Status' }).click();
    await expectPath(page, '/admin/status/api');
    await page.getByText('Polygon (Forex)').waitFor();
    await page.getByTestId('api-status-currency').getByText('0/0').waitFor();
    await snap(page, 'trade-management-api-status');
  });
});
