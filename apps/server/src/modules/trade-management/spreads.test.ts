import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs } from '../../db/schema.ts';
import { getSettings } from '../settings/service.ts';
import { spreadSettingOf, tradingSettings } from '../trading/trader.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const KEYS = ['spread_forex', 'spread_commodity', 'spread_index', 'spread_crypto', 'spread_stock'];
const stored = async () => {
  const rows = await getSettings(t.ctx.db, KEYS);
  return Object.fromEntries(KEYS.map((k) => [k, rows[k]?.value1]));
};

describe('Spread Settings', () => {
  it('reads the five spread records', async () => {
    const res = await call('GET', '/api/admin/spreads');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      spread_forex: '1',
      spread_commodity: '1',
      spread_index: '1',
      spread_crypto: '1',
      spread_stock: '1',
    });
  });

  it('refuses missing, negative and non-numeric values with the spec messages and changes nothing', async () => {
    const before = await stored();
    const empty = await call('POST', '/api/admin/spreads', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Forex spread is required');
    expect(empty.json().errors).toEqual({
      spread_forex: 'Forex spread is required',
      spread_commodity: 'Commodity spread is required',
      spread_index: 'Index spread is required',
      spread_crypto: 'Crypto spread is required',
      spread_stock: 'Stock spread is required',
    });
    const bad = await call('POST', '/api/admin/spreads', {
      spread_forex: 2,
      spread_commodity: -1,
      spread_index: 'abc',
      spread_crypto: '',
      spread_stock: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      spread_commodity: 'Must be 0 or more',
      spread_index: 'Enter a number with at most 8 decimals',
      spread_crypto: 'Crypto spread is required',
    });
    expect(await stored()).toEqual(before);
  });

  it('saves numbers or numeric strings, audits, and the next order reads the new spread at once', async () => {
    // Warm the trading settings cache with the old values first.
    expect(spreadSettingOf(await tradingSettings(t.ctx.db), 'forex')).toBe('1');
    const res = await call('POST', '/api/admin/spreads', {
      spread_forex: 2.5,
      spread_commodity: '0',
      spread_index: '3',
      spread_crypto: 1e-7,
      spread_stock: ' 4 ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Spreads updated successfully' });
    const expected = {
      spread_forex: '2.5',
      spread_commodity: '0',
      spread_index: '3',
      spread_crypto: '0.0000001',
      spread_stock: '4',
    };
    expect(await stored()).toEqual(expected);
    expect((await call('GET', '/api/admin/spreads')).json()).toEqual(expected);
    const s = await tradingSettings(t.ctx.db);
    expect(spreadSettingOf(s, 'forex')).toBe('2.5');
    expect(spreadSettingOf(s, 'crypto')).toBe('0.0000001');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'settings.spreads_update'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit.before).toMatchObject({ spread_forex: '1' });
    expect(audit.after).toEqual(expected);
  });

  it('is refused to other roles', async () => {
    const cookie = await signIn(t.app, DEMO.manager);
    expect((await call('GET', '/api/admin/spreads', undefined, cookie)).statusCode).toBe(403);
    expect(
      (
        await call(
          'POST',
          '/api/admin/spreads',
          { spread_forex: 9, spread_commodity: 9, spread_index: 9, spread_crypto: 9, spread_stock: 9 },
          cookie,
        )
      ).statusCode,
    ).toBe(403);
    expect((await stored()).spread_forex).toBe('2.5');
  });
});
