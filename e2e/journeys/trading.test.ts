import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiSession, lastMailLink } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import {
  chooseOption,
  dataTable,
  dismissToasts,
  expectToast,
  modal,
  signInAs,
  topBar,
  topBarStat,
  useJourney,
} from '../support/pages.ts';
import {
  dashboard,
  MARKETS,
  orderById,
  placeOrderFromList,
  positionCell,
  priceTexts,
  quoteOf,
} from '../support/trading.ts';

const CLIENT = 'client@demo.test';
/** EUR/USD shows 5 decimals. */
const eurUsd = (rate: string | number) => Number(rate).toFixed(5);

describe('trading dashboard', () => {
  // Every market open whatever the day, so the simulated feed moves all five tabs and orders are accepted.
  const j = useJourney({ MARKET_HOURS: 'open' });

  it('shows prices moving in every market, daily candles and a live SELL/BUY on the chart', async () => {
    const { page } = j;
    const candles = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/market/candles');
    await signInAs(page, CLIENT);

    // The chart opens on USD/CNH with its daily history drawn on a canvas.
    const history = await candles;
    expect(history.status()).toBe(200);
    expect(((await history.json()) as unknown[]).length).toBeGreaterThan(10);
    await expect.poll(() => dashboard.chart(page).locator('canvas').count()).toBeGreaterThan(0);

    for (const market of MARKETS) {
      await dashboard.marketTab(page, market.label).click();
      const panel = dashboard.marketPanel(page, market.category);
      await expect.poll(async () => (await priceTexts(panel)).filter((p) => p !== '-').length).toBeGreaterThan(0);
      const before = await priceTexts(panel);
      // About a third of the instruments move on each tick of the feed (four a second).
      await expect
        .poll(async () => (await priceTexts(panel)).some((p, i) => p !== before[i]), { timeout: 5_000 })
        .toBe(true);
      if (market.category === 'forex' || market.category === 'crypto')
        await snap(page, `trading-1-live-${market.category}`);
    }

    const sell = dashboard.chartButton(page, 'SELL');
    const buy = dashboard.chartButton(page, 'BUY');
    expect(await sell.textContent()).toMatch(/^SELL\d+\.\d{5}$/);
    const first = `${await sell.textContent()} ${await buy.textContent()}`;
    await expect
      .poll(async () => `${await sell.textContent()} ${await buy.textContent()}`, { timeout: 10_000 })
      .not.toBe(first);
  });

  it('finds instruments by search and keeps EUR/USD in Favorite Pairs until it is removed', async () => {
    const { page } = j;
    await signInAs(page, CLIENT);

    await dashboard.search(page).fill('eur');
    for (const name of ['EUR_USD', 'EUR_GBP', 'EUR_JPY', 'EUR_CHF'])
      await dashboard.instrumentRow(page, name).waitFor();
    for (const name of ['AAPL_USD', 'BTC_USD', 'USD_JPY'])
      expect(await dashboard.instrumentRow(page, name).count()).toBe(0);
    await snap(page, 'trading-2-search-eur');

    await dashboard.instrumentRow(page, 'EUR_USD').getByRole('button', { name: 'Add EUR/USD to favorites' }).click();
    await expectToast(page, 'Added to favorites');
    await dashboard.search(page).fill('');
    const favorites = dashboard.favorites(page);
    await dashboard.instrumentRow(favorites, 'EUR_USD').waitFor();
    expect(await favorites.getByTestId(/^instrument-/).count()).toBe(1);
    await snap(page, 'trading-3-favorite-added');

    await dismissToasts(page);
    await favorites.getByRole('button', { name: 'Remove EUR/USD from favorites' }).click();
    await expectToast(page, 'Removed from favorites');
    await favorites.getByText('Star an instrument to keep it here.').waitFor();
    expect(await dashboard.instrumentRow(favorites, 'EUR_USD').count()).toBe(0);
  });

  it('buys EUR/USD with take-profit and stop-loss, moves the stop-loss, closes it and exports the statement', async () => {
    const { page } = j;
    await signInAs(page, CLIENT);
    await expect.poll(() => topBarStat(page, 'Used Margin').textContent()).toBe('$0.00');

    const order = await placeOrderFromList(page, {
      side: 'Buy',
      label: 'EUR/USD',
      prepare: async (dialog) => {
        await chooseOption(page, 'Select lot size', 'Mini lot (0.1)', { scope: dialog });
        await dialog.getByRole('switch', { name: 'Take Profit' }).check();
        await dialog.getByRole('switch', { name: 'Stop Loss' }).check();
        // Switched on, each level starts 1% away from the ask, inside its bounds.
        await expect
          .poll(() => dialog.getByRole('textbox', { name: 'Take Profit' }).inputValue())
          .toMatch(/^\d\.\d{5}$/);
        await expect.poll(() => dialog.getByRole('textbox', { name: 'Stop Loss' }).inputValue()).toMatch(/^\d\.\d{5}$/);
        await snap(page, 'trading-4-buy-dialog');
      },
    });
    expect(order).toMatchObject({ type: 'buy', instrument: 'EUR_USD' });
    expect(order.profit).not.toBeNull();
    expect(order.loss).not.toBeNull();
    await expectToast(page, 'Order Placed Successfully');

    // Opened Positions is the tab shown first.
    await dashboard.position(page, order.id).waitFor();
    // Polled: the row is drawn first and its cells fill as the instrument's lot settings and prices arrive.
    const cell = (heading: string) => async () => (await positionCell(page, order.id, heading)).textContent();
    await expect.poll(cell('Ticket')).toBe(String(order.id));
    await expect.poll(cell('Amount')).toBe('0.10 lot');
    await expect.poll(cell('Instrument')).toBe('EUR/USD');
    await expect.poll(cell('Type')).toBe('BUY');
    await expect.poll(cell('Stop Loss')).toBe(eurUsd(order.loss!));
    await expect.poll(() => topBarStat(page, 'Used Margin').textContent()).not.toBe('$0.00');
    expect(await topBarStat(page, 'Margin Level').textContent()).toMatch(/^[\d,]+(\.\d+)?%$/);
    await snap(page, 'trading-5-position-opened');

    // A tighter stop-loss, 50 pips under the open rate: far enough that the feed does not reach it meanwhile.
    await dismissToasts(page);
    const newLoss = eurUsd(Number(order.open_rate) - 0.005);
    await dashboard.position(page, order.id).getByRole('button', { name: 'Set Stop/Loss' }).click();
    const dialog = modal(page, /Set Stop\/Loss/);
    const level = dialog.getByRole('textbox', { name: 'Stop Loss' });
    expect(await level.inputValue()).toBe(eurUsd(order.loss!));
    await level.fill(newLoss);
    await snap(page, 'trading-6-set-stop-loss');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Stop Loss Set Successfully');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await positionCell(page, order.id, 'Stop Loss')).textContent()).toBe(newLoss);

    await dismissToasts(page);
    await dashboard.position(page, order.id).getByRole('button', { name: 'Close', exact: true }).click();
    await expectToast(page, 'Order Closed Successfully');
    await dashboard.position(page, order.id).waitFor({ state: 'detached' });
    await dashboard.positionsTab(page, 'All Positions').click();
    await expect.poll(async () => (await positionCell(page, order.id, 'Status')).textContent()).toBe('CLOSED');
    const closeRate = await (await positionCell(page, order.id, 'Close Rate')).textContent();
    expect(closeRate).toMatch(/^\d\.\d{5}$/);
    await expect.poll(() => topBarStat(page, 'Used Margin').textContent()).toBe('$0.00');
    await snap(page, 'trading-7-position-closed');

    await page.goto('/statements');
    const statement = dataTable.row(page, 'EUR/USD');
    await statement.waitFor();
    expect(await dataTable.rows(page).count()).toBe(1);
    const cells = await statement.locator('td').allTextContents();
    expect(cells.slice(2, 7)).toEqual(['EUR/USD', 'BUY', '10000', eurUsd(order.open_rate), closeRate]);
    expect(cells[8]).toBe('CLOSED');
    await snap(page, 'trading-8-statements');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export' }).click();
    const file = await (await download).path();
    const lines = fs
      .readFileSync(file, 'utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe(
      'ID,Open Time,Close Time,Instrument,Type,Amount,Open Rate,Close Rate,Spread,Profit/Loss,Status',
    );
    expect(lines).toHaveLength(2);
    const row = lines[1].split(',');
    expect(row[0]).toBe(String(order.id));
    expect(row.slice(3, 5)).toEqual(['EUR_USD', 'buy']);
    expect(Number(row[5])).toBe(10000);
    expect(Number(row[6])).toBe(Number(order.open_rate));
    expect(eurUsd(row[7])).toBe(closeRate);
    expect(row[10]).toBe('Closed');
  });

  it('closes a position at its stop-loss on the server while the browser is closed, and tells the client', async () => {
    await signInAs(j.page, CLIENT);
    const order = await placeOrderFromList(j.page, { side: 'Buy', label: 'EUR/USD' });
    await expectToast(j.page, 'Order Placed Successfully');
    await dashboard.position(j.page, order.id).waitFor();
    expect(order.loss).toBeNull();
    // The client closes the browser: from here on only the server watches the position.
    await j.context.close();

    const api = new ApiSession(j.url);
    await api.signIn(CLIENT);
    // A stop-loss a fraction of a pip under the bid (never above the open rate, its upper bound for a buy).
    const { bid } = await quoteOf(api, 'EUR_USD');
    const tight = eurUsd(Math.min(bid - 0.00003, Number(order.open_rate)));
    const set = await api.call('PUT', `/dashboard/orders/${order.id}`, { loss: tight });
    expect(set.status).toBe(200);

    // The feed moves EUR/USD by about a pip a few times a second, so the bid normally falls through the level within
    // seconds. Should the walk drift upwards for long, the level is raised to the bid once the bid is back under the
    // open rate (a level at or above the bid closes at once), so the test ends the same way every run.
    const waitUntil = Date.now() + 20_000;
    await expect
      .poll(
        async () => {
          const o = await orderById(api, order.id);
          if (o && o.close_time === null && Date.now() > waitUntil) {
            const q = await quoteOf(api, 'EUR_USD');
            if (q.bid <= Number(o.open_rate))
              await api.call('PUT', `/dashboard/orders/${order.id}`, { loss: eurUsd(q.bid) });
          }
          return o?.close_reason ?? null;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('stop_loss');

    const page = await j.reopen();
    await signInAs(page, CLIENT);
    await dashboard.positionsTab(page, 'All Positions').click();
    const status = await positionCell(page, order.id, 'Status');
    await expect.poll(() => status.textContent()).toBe('CLOSEDStop loss');
    await expect.poll(() => dashboard.positionsTab(page, 'Opened Positions').textContent()).toBe('Opened Positions');

    await topBar(page).getByRole('button', { name: 'Notifications' }).click();
    const notice = page.getByRole('menu').getByRole('button').filter({ hasText: 'Stop loss reached' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`position #${order.id} was closed at`);
    await snap(page, 'trading-9-stop-loss-notification');
  });

  it('lets a newcomer without KYC trade on the demo wallet, and refuses real-wallet orders until KYC is approved', async () => {
    const email = `newcomer-${Date.now()}@example.test`;
    const password = 'Newcomer123!';
    const api = new ApiSession(j.url);
    const signup = await api.call('POST', '/auth/signup', {
      fullName: 'Nour Newcomer',
      email,
      password,
      passwordConfirmation: password,
      phone: '+44 20 7946 0123',
      birthDate: '1994-02-03',
      country: 'United Kingdom',
      city: 'Leeds',
      address: '3 Park Row',
      postalCode: 'LS1 5HD',
      currency: 'USD',
    });
    expect(signup.status).toBe(201);
    const link = await lastMailLink(j.url, email, '/verify-email');
    expect(
      (await api.call('POST', '/auth/verify-email', { token: new URL(link).searchParams.get('token') })).status,
    ).toBe(200);
    await api.signIn(email, password);
    // A plan first (the free one), so the plan chooser does not stand between the newcomer and the dashboard.
    const plans = await api.call<{ data: Array<{ id: number; price: string }> }>('GET', '/dashboard/pricing');
    const free = plans.json.data.find((p) => Number(p.price) === 0)!;
    expect((await api.call('POST', `/dashboard/pricing/subscribe/${free.id}`)).status).toBe(200);

    await signInAs(j.page, email, password);
    // A new client starts on the demo wallet, which trades without KYC: no banner there.
    await j.page.getByTestId('pricing-plan-panel').waitFor();
    expect(await j.page.getByTestId('kyc-banner').count()).toBe(0);
    const order = await placeOrderFromList(j.page, { side: 'Buy', label: 'EUR/USD' });
    expect(order.id).toBeGreaterThan(0);
    await expectToast(j.page, 'Order Placed Successfully');
    await snap(j.page, 'trading-newcomer-demo-order');

    const me = await api.call<{ user: { balances: Array<{ id: number; mode: string }> } }>('GET', '/auth/user');
    const real = me.json.user.balances.find((b) => b.mode === 'real')!;
    expect((await api.call('POST', '/dashboard/switch-wallet', { balanceId: real.id })).status).toBe(200);
    const refused = await api.call<{ message: string }>('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: 1000,
      profit: null,
      loss: null,
    });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('Please verify KYC to enable trading');
    // Where the server refuses, the dashboard says so.
    await j.page.reload();
    await j.page.getByTestId('kyc-banner').waitFor();
  });

  it('refuses bad orders over the API: zero amount, staff and anonymous callers', async () => {
    const order = { type: 'buy', instrument: 'EUR_USD', amount: 0 };
    const client = new ApiSession(j.url);
    await client.signIn(CLIENT);
    const zero = await client.call<{ message: string }>('POST', '/dashboard/orders', order);
    expect(zero.status).toBe(422);
    expect(zero.json.message).toBe('Amount must be greater than 0');

    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    expect((await admin.call('POST', '/dashboard/orders', { ...order, amount: 1000 })).status).toBe(403);

    expect((await new ApiSession(j.url).call('POST', '/dashboard/orders', { ...order, amount: 1000 })).status).toBe(
      401,
    );
  });
});
