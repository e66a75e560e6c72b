import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, like } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs } from '../../db/schema.ts';
import { getSetting } from '../settings/service.ts';

let t: TestApp;
let admin: string;
let client: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  client = await signIn(t.app, DEMO.client);
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const MODES = {
  lot_forex: 'lot',
  lot_commodity: 'amount',
  lot_index: 'amount',
  lot_stock: 'amount',
  lot_crypto: 'amount',
};
const lastAudit = async () =>
  (
    await t.ctx.db
      .select()
      .from(auditLogs)
      .where(like(auditLogs.action, 'settings.lot%'))
      .orderBy(desc(auditLogs.id))
      .limit(1)
  )[0];

describe('Lot Settings', () => {
  it('reads the modes and presets as seeded', async () => {
    const res = await call('GET', '/api/admin/lots');
    expect(res.statusCode).toBe(200);
    expect(res.json().modes).toEqual(MODES);
    expect(res.json().lotSelector).toEqual([
      { label: 'Micro lot (0.01)', value: 1000 },
      { label: 'Mini lot (0.1)', value: 10000 },
      { label: 'Standard lot (1)', value: 100000 },
    ]);
  });

  it('refuses a missing or unknown mode and changes nothing', async () => {
    const res = await call('POST', '/api/admin/lots', { ...MODES, lot_crypto: 'units', lot_stock: undefined });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ lot_stock: 'Choose lot or amount', lot_crypto: 'Choose lot or amount' });
    expect((await call('GET', '/api/admin/lots')).json().modes).toEqual(MODES);
  });

  it('saves the modes, audits, and the order dialog follows at once', async () => {
    // The client's dialog asks first (and fills the trading settings cache) ...
    expect((await call('GET', '/api/dashboard/lot-state/crypto', undefined, client)).json().lotState).toBe('amount');
    const modes = { ...MODES, lot_forex: 'amount', lot_crypto: 'lot' };
    const res = await call('POST', '/api/admin/lots', modes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Lots updated successfully' });
    expect((await getSetting(t.ctx.db, 'lot_crypto'))?.value1).toBe('lot');
    // ... and sees the change on the next ask, not after the cache's lifetime.
    expect((await call('GET', '/api/dashboard/lot-state/crypto', undefined, client)).json().lotState).toBe('lot');
    expect((await call('GET', '/api/dashboard/lot-state/forex', undefined, client)).json().lotState).toBe('amount');
    const audit = await lastAudit();
    expect(audit.action).toBe('settings.lots_update');
    expect(audit.before).toEqual(MODES);
    expect(audit.after).toEqual(modes);
  });

  it('validates the presets: label required, value above 0, at least one', async () => {
    const before = await getSetting(t.ctx.db, 'lotSelector');
    const bad = await call('POST', '/api/admin/lotSelector', {
      lotSelector: [
        { label: ' ', value: 1000 },
        { label: 'Zero', value: 0 },
        { label: 'Text', value: 'abc' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      'lotSelector.0.label': 'Label is required',
      'lotSelector.1.value': 'Value must be greater than 0',
      'lotSelector.2.value': 'Value must be a number',
    });
    const none = await call('POST', '/api/admin/lotSelector', { lotSelector: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Add at least one preset');
    const missing = await call('POST', '/api/admin/lotSelector', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Add at least one preset');
    expect(await getSetting(t.ctx.db, 'lotSelector')).toEqual(before);
  });

  it('saves the presets in order, audits, and the order dialog offers them', async () => {
    const lotSelector = [
      { label: 'Nano', value: 100 },
      { label: 'Micro', value: '1000' },
      { label: 'Half', value: 50000.5 },
    ];
    const res = await call('POST', '/api/admin/lotSelector', { lotSelector });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Lots updated successfully' });
    const expected = [
      { label: 'Nano', value: 100 },
      { label: 'Micro', value: 1000 },
      { label: 'Half', value: 50000.5 },
    ];
    expect((await call('GET', '/api/admin/lots')).json().lotSelector).toEqual(expected);
    // Forex at its standard contract offers exactly these units, with their size in lots beside.
    expect((await call('GET', '/api/dashboard/lot-state/forex', undefined, client)).json().lotSelector).toEqual(
      expected.map((p) => ({ ...p, lots: p.value / 100000 })),
    );
    const audit = await lastAudit();
    expect(audit.action).toBe('settings.lot_selector_update');
    expect(audit.after).toEqual({ lotSelector: expected });
    expect((audit.before as { lotSelector: unknown[] }).lotSelector).toHaveLength(3);
  });

  it("gives every other category presets of its own in lots, offered in units of each instrument's contract size", async () => {
    const defaults = (await call('GET', '/api/admin/lots')).json().categoryPresets;
    expect(defaults.commodity.map((p: { value: number }) => p.value)).toEqual([0.01, 0.1, 0.5, 1]);
    const gold = await call('GET', '/api/dashboard/lot-state/commodity?instrument=XAU_USD', undefined, client);
    expect(gold.statusCode, gold.body).toBe(200);
    // Gold trades 100 oz a lot by default: 0.01 lot is 1 oz.
    expect(gold.json().contractSize).toBe('100');
    expect(gold.json().lotSelector[0]).toEqual({ label: '0.01 lot', value: 1, lots: 0.01 });

    const res = await call('POST', '/api/admin/lotSelector', {
      category: 'commodity',
      lotSelector: [
        { label: 'Tenth', value: 0.1 },
        { label: 'One', value: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getSetting(t.ctx.db, 'lotSelector_commodity'))?.value1).toBe(
      JSON.stringify([
        { label: 'Tenth', value: 0.1 },
        { label: 'One', value: 1 },
      ]),
    );
    // Silver with a contract of its own (5,000 oz): the same lots, in its units.
    const silver = t.ctx.market.instruments.byNameOf('XAG_USD');
    const edit = await call('PUT', `/api/admin/instruments/${silver?.id}`, {
      name: 'XAG_USD',
      base: 'XAG',
      quote: 'USD',
      category: 'commodity',
      tradingview: 'OANDA',
      leverage: 50,
      tradable: true,
      contractSize: '5000',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const state = (
      await call('GET', '/api/dashboard/lot-state/commodity?instrument=XAG_USD', undefined, client)
    ).json();
    expect(state).toMatchObject({
      contractSize: '5000',
      lotSelector: [
        { value: 500, lots: 0.1 },
        { value: 5000, lots: 1 },
      ],
    });
    const listed = (await call('GET', '/api/dashboard/instruments', undefined, client)).json();
    const row = (Array.isArray(listed) ? listed : listed.data).find((i: { name: string }) => i.name === 'XAG_USD');
    expect(row.contract_size).toBe('5000');

    // An instrument of another category, or none, is a 404; a bad contract size a 400 that changes nothing.
    expect((await call('GET', '/api/dashboard/lot-state/forex?instrument=XAG_USD', undefined, client)).statusCode).toBe(
      404,
    );
    const bad = await call('PUT', `/api/admin/instruments/${silver?.id}`, {
      name: 'XAG_USD',
      base: 'XAG',
      quote: 'USD',
      category: 'commodity',
      tradingview: 'OANDA',
      leverage: 50,
      tradable: true,
      contractSize: '-1',
    });
    expect(bad.statusCode).toBe(400);
    expect(t.ctx.market.instruments.byNameOf('XAG_USD')?.contractSize).toBe('5000.00000000');
    const unknown = await call('POST', '/api/admin/lotSelector', {
      category: 'bonds',
      lotSelector: [{ label: 'x', value: 1 }],
    });
    expect(unknown.statusCode).toBe(400);
  });
});
