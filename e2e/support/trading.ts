import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { ApiSession } from './api.ts';
import { modal } from './pages.ts';

/** The market tabs of the instrument panel: tab label and the category in the panel's test id. */
export const MARKETS = [
  { label: 'FOREX', category: 'forex' },
  { label: 'COMMODITIES', category: 'commodity' },
  { label: 'INDICES', category: 'index' },
  { label: 'STOCK', category: 'stock' },
  { label: 'CRYPTO', category: 'crypto' },
] as const;

/** Selectors of the trading dashboard (/dashboard). Instrument names are the catalogue's (EUR_USD), labels the screen's (EUR/USD). */
export const dashboard = {
  search: (page: Page) => page.getByRole('textbox', { name: 'Search instruments' }),
  marketTab: (page: Page, label: string) => page.getByRole('tab', { name: label, exact: true }),
  marketPanel: (page: Page, category: string) => page.getByTestId(`market-${category}`),
  /** The Sell and Buy price buttons of the instrument rows inside a scope. */
  priceButtons: (scope: Page | Locator) => scope.getByRole('button', { name: /^(Sell|Buy) / }),
  instrumentRow: (scope: Page | Locator, name: string) => scope.getByTestId(`instrument-${name}`),
  /** The panel of the Favorite Pairs accordion. */
  favorites: (page: Page) => page.getByRole('region', { name: 'Favorite Pairs' }),
  chart: (page: Page) => page.getByTestId('price-chart'),
  /** The floating SELL or BUY button over the chart. */
  chartButton: (page: Page, side: 'SELL' | 'BUY') => page.getByRole('button', { name: side, exact: true }),
  positionsTab: (page: Page, name: 'All Positions' | 'Opened Positions') =>
    // The Opened Positions tab carries a count badge after its label.
    page.getByRole('tab', { name: new RegExp(`^${name}`) }),
  position: (page: Page, orderId: number) => page.getByTestId(`position-${orderId}`),
};

/** Texts of all Sell/Buy prices in a scope, in screen order. */
export async function priceTexts(scope: Page | Locator): Promise<string[]> {
  return dashboard.priceButtons(scope).allTextContents();
}

/**
 * The cell of a positions-table row under a column heading. The column is looked up by its heading because the
 * All Positions table has more columns (close rate, close time) than the Opened Positions table.
 */
export async function positionCell(page: Page, orderId: number, heading: string): Promise<Locator> {
  const row = dashboard.position(page, orderId);
  const table = page.locator('table').filter({ has: row });
  const headings = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const index = headings.indexOf(heading);
  if (index < 0) throw new Error(`no column ${heading} in ${headings.join(', ')}`);
  return row.locator('td').nth(index);
}

/**
 * Places an order through the instrument row's Sell/Buy button and its dialog; returns the new order as the
 * server answered it. `prepare` fills the dialog (lot size, take-profit, stop-loss) before the order is sent.
 */
export async function placeOrderFromList(
  page: Page,
  opts: { side: 'Buy' | 'Sell'; label: string; prepare?: (dialog: Locator) => Promise<void> },
): Promise<OrderJson> {
  // A favourite instrument is listed twice (Favorite Pairs and its market tab); both rows open the same dialog.
  await page
    .getByRole('button', { name: `${opts.side} ${opts.label}`, exact: true })
    .first()
    .click();
  const dialog = modal(page, new RegExp(`${opts.side} Order`));
  // The dialog shows a spinner until the conversion rate and the lot mode are loaded.
  await dialog.getByRole('button', { name: opts.side, exact: true }).waitFor();
  await opts.prepare?.(dialog);
  const placed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/dashboard/orders' && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: opts.side, exact: true }).click();
  const res = await placed;
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { order: OrderJson };
  await dialog.waitFor({ state: 'hidden' });
  return body.order;
}

/** An order as the orders API returns it (the fields the journeys read). */
export interface OrderJson {
  id: number;
  type: 'buy' | 'sell';
  instrument: string;
  open_rate: string;
  loss: string | null;
  profit: string | null;
  close_time: string | null;
  close_reason: string | null;
}

/** The current bid and ask of an instrument, from the dashboard's instrument catalogue. */
export async function quoteOf(api: ApiSession, name: string): Promise<{ bid: number; ask: number }> {
  const r = await api.call<Array<{ name: string; bids: number | null; asks: number | null }>>(
    'GET',
    '/dashboard/instruments',
  );
  const i = r.json.find((x) => x.name === name);
  if (!i || i.bids === null || i.asks === null) throw new Error(`no quote for ${name}`);
  return { bid: i.bids, ask: i.asks };
}

/** One order of the signed-in client, looked up in the paged list of all its orders. */
export async function orderById(api: ApiSession, id: number): Promise<OrderJson | undefined> {
  const r = await api.call<{ data: OrderJson[] }>('GET', '/dashboard/orders?status=all&page=1&limit=50');
  return r.json.data.find((o) => o.id === id);
}
