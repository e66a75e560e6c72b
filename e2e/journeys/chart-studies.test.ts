import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snap } from '../support/browser.ts';
import { modal, signInAs, useJourney } from '../support/pages.ts';
import { dashboard } from '../support/trading.ts';

const CLIENT = 'client@demo.test';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** What the price chart has drawn: its indicators (`RSI(14) EMA(20)`) and drawings (`trend:12 hline:13`). */
const drawn = (page: Page, what: 'indicators' | 'drawings' | 'tool') =>
  dashboard.chart(page).evaluate((el, key) => el.dataset[key] ?? '', what);

async function chartEurUsd(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Show EUR/USD on the chart' }).first().click();
  await expect.poll(() => page.getByText('Euro / US Dollar ·').count()).toBeGreaterThan(0);
}

describe('chart indicators and drawings', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('keeps RSI, EMA(20) and a trend line drawn on the weekly chart for the next session, on a phone too', async () => {
    let page = j.page;
    await page.setViewportSize(DESKTOP);
    await signInAs(page, CLIENT);
    await chartEurUsd(page);
    // Nothing of the chart tools is loaded before they are used.
    expect(await drawn(page, 'indicators')).toBe('');

    // Indicators: RSI with its usual 14, EMA set to 20 in the menu; both saved for the user.
    await page.getByRole('button', { name: 'Indicators', exact: true }).click();
    const menu = modal(page, 'Indicators');
    await menu.getByRole('button', { name: 'Relative strength index (RSI)' }).click();
    await menu.getByRole('button', { name: 'Exponential moving average (EMA)' }).click();
    const ema = menu.getByRole('group', { name: 'Exponential moving average (EMA)' });
    await ema.getByLabel('Period').fill('21');
    await expect.poll(() => drawn(page, 'indicators')).toBe('RSI(14) EMA(21)');
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === '/api/dashboard/chart/settings',
    );
    await ema.getByLabel('Period').fill('20');
    expect((await saved).status()).toBe(200);
    await expect.poll(() => drawn(page, 'indicators')).toBe('RSI(14) EMA(20)');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // Weekly bars: built on the server from the daily ones, each starting on a Monday.
    const weekly = page.waitForResponse((r) => r.url().includes('/api/market/candles') && r.url().includes('1w'));
    await page.getByText('W', { exact: true }).click();
    const weeks = (await (await weekly).json()) as { time: number }[];
    expect(weeks.length).toBeGreaterThan(40);
    expect(weeks.every((w) => new Date(w.time * 1000).getUTCDay() === 1)).toBe(true);
    await page.getByText('Euro / US Dollar · Weekly').waitFor();

    // A trend line: the tool, then two clicks on the price pane (the RSI pane is below it).
    await page.getByRole('button', { name: 'Draw', exact: true }).click();
    await page.getByRole('button', { name: 'Trend line' }).click();
    await expect.poll(() => drawn(page, 'tool')).toBe('trend');
    const box = (await dashboard.chart(page).boundingBox())!;
    const created = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/dashboard/chart/drawings',
    );
    await page.mouse.click(box.x + box.width * 0.35, box.y + box.height * 0.45);
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.35, { steps: 4 });
    await page.mouse.click(box.x + box.width * 0.65, box.y + box.height * 0.25);
    const response = await created;
    expect(response.status()).toBe(201);
    const { drawing } = (await response.json()) as { drawing: { id: number; kind: string; points: unknown[] } };
    expect(drawing).toMatchObject({ kind: 'trend' });
    expect(drawing.points).toHaveLength(2);
    await expect.poll(() => drawn(page, 'drawings')).toContain(`trend:${drawing.id}`);
    await expect.poll(() => drawn(page, 'tool')).toBe('');

    // The crosshair legend: the bar under the pointer and the indicators' values there.
    const legend = page.getByTestId('chart-legend');
    // Weekly RSI(14) has values from the 15th week on: well inside the year of bars.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.55);
    await expect.poll(() => legend.textContent()).toMatch(/O \d\.\d{5}H \d\.\d{5}L \d\.\d{5}C \d\.\d{5}/);
    const hovered = await legend.textContent();
    expect(hovered).toMatch(/RSI\(14\) \d+\.\d\d/);
    expect(hovered).toMatch(/EMA\(20\) \d\.\d{5}/);
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.55);
    await expect.poll(() => legend.textContent()).not.toBe(hovered);
    await snap(page, 'chart-1-indicators-weekly-trend-1440');

    // A new session in a fresh browser: the indicators and the trend line come from the server.
    page = await j.reopen();
    await page.setViewportSize(DESKTOP);
    await signInAs(page, CLIENT);
    await chartEurUsd(page);
    await expect.poll(() => drawn(page, 'indicators')).toBe('RSI(14) EMA(20)');
    await expect.poll(() => drawn(page, 'drawings')).toContain(`trend:${drawing.id}`);
    await page.getByText('W', { exact: true }).click();
    await page.getByText('Euro / US Dollar · Weekly').waitFor();
    await snap(page, 'chart-2-next-session-1440');

    // On a phone: the dashboard's chart, and the full-height chart page, with the same indicators and line.
    await page.setViewportSize(PHONE);
    await dashboard.chart(page).scrollIntoViewIfNeeded();
    await snap(page, 'chart-3-phone-dashboard');
    await page.goto('/chart/EUR_USD');
    await expect.poll(() => drawn(page, 'indicators')).toBe('RSI(14) EMA(20)');
    await expect.poll(() => drawn(page, 'drawings')).toContain(`trend:${drawing.id}`);
    await snap(page, 'chart-4-phone-chart-page');
  });
});
