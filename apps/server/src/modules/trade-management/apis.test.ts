import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { FakePolygon } from '../../../test/fakes/polygon.ts';
import { waitFor } from '../../../test/fakes/wait.ts';
import { auditLogs } from '../../db/schema.ts';
import { getSetting, putSetting } from '../settings/service.ts';

let t: TestApp;
let admin: string;
let polygon: FakePolygon;

beforeAll(async () => {
  polygon = await FakePolygon.start('poly-live-key-1234');
  t = await createTestApp({ POLYGON_WS_URL: polygon.url });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(async () => {
  await t.ctx.market.feeds?.stop();
  await polygon.close();
  await t.close();
});

const call = (method: 'GET' | 'PUT', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const lastAudit = async () => (await t.ctx.db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1))[0];

describe('Trade APIs', () => {
  it('lists the five provider records in order, with every value field', async () => {
    const res = await call('GET', '/api/admin/apis');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.key)).toEqual(['polygonAPI', 'eodAPI', 'oandaAPI', 'currencyAPI', 'voiso']);
    expect(rows[2]).toMatchObject({
      key: 'oandaAPI',
      value1: '',
      value2: '',
      value3: 'fxpractice',
      value4: null,
      value5: null,
    });
    expect(Object.keys(rows[0]).sort()).toEqual([
      'key',
      'updated_at',
      'value1',
      'value2',
      'value3',
      'value4',
      'value5',
    ]);
  });

  it('shows nothing to anyone but an admin', async () => {
    await putSetting(t.ctx.db, 'eodAPI', { value1: 'secret-eod-key' });
    for (const email of [DEMO.manager, DEMO.client, DEMO.affiliate, DEMO.agent, DEMO.retention]) {
      const cookie = await signIn(t.app, email);
      const list = await call('GET', '/api/admin/apis', undefined, cookie);
      expect(list.statusCode).toBe(403);
      expect(list.body).not.toContain('secret-eod-key');
      const put = await call('PUT', '/api/admin/apis/eodAPI', { key: 'eodAPI', value1: 'stolen' }, cookie);
      expect(put.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/apis' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('secret-eod-key');
    expect((await getSetting(t.ctx.db, 'eodAPI'))?.value1).toBe('secret-eod-key');
  });

  it('refuses missing keys with the spec messages and changes nothing', async () => {
    const before = await getSetting(t.ctx.db, 'oandaAPI');
    const oanda = await call('PUT', '/api/admin/apis/oandaAPI', {
      key: 'oandaAPI',
      value1: ' ',
      value2: '',
      value3: 'fxtrade',
    });
    expect(oanda.statusCode).toBe(400);
    expect(oanda.json().message).toBe('Account Number is required');
    expect(oanda.json().errors).toMatchObject({ value1: 'Account Number is required', value2: 'API Key is required' });
    expect(await getSetting(t.ctx.db, 'oandaAPI')).toEqual(before);

    const polygonRes = await call('PUT', '/api/admin/apis/polygonAPI', { key: 'polygonAPI', value1: '' });
    expect(polygonRes.statusCode).toBe(400);
    expect(polygonRes.json().message).toBe('API Key is required');

    const voiso = await call('PUT', '/api/admin/apis/voiso', { key: 'voiso', value1: 'cluster-7' });
    expect(voiso.statusCode).toBe(400);
    expect(voiso.json().errors).toEqual({ value2: 'API Key is required' });

    const mode = await call('PUT', '/api/admin/apis/oandaAPI', {
      key: 'oandaAPI',
      value1: '001',
      value2: 'k',
      value3: 'live',
    });
    expect(mode.statusCode).toBe(400);
    expect(mode.json().message).toBe('Choose practice or live mode');
  });

  it('refuses a body for another key and an unknown key', async () => {
    const mismatch = await call('PUT', '/api/admin/apis/eodAPI', { key: 'polygonAPI', value1: 'x' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('The key does not match the address.');
    const noKey = await call('PUT', '/api/admin/apis/eodAPI', { value1: 'x' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().message).toBe('Key is required');
    const unknown = await call('PUT', '/api/admin/apis/stripe', { key: 'stripe', value1: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect((await getSetting(t.ctx.db, 'eodAPI'))?.value1).toBe('secret-eod-key');
  });

  it('saves Oanda, answers with its name and audits without the secret', async () => {
    const res = await call('PUT', '/api/admin/apis/oandaAPI', {
      key: 'oandaAPI',
      value1: ' 101-004-1234 ',
      value2: 'oanda-secret-token-9876',
      value3: 'fxtrade',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Oanda updated successfully');
    expect(await getSetting(t.ctx.db, 'oandaAPI')).toMatchObject({
      value1: '101-004-1234',
      value2: 'oanda-secret-token-9876',
      value3: 'fxtrade',
    });
    const audit = await lastAudit();
    expect(audit.action).toBe('settings.api_update');
    expect(audit.after).toEqual({
      key: 'oandaAPI',
      value1: '101-004-1234',
      value2: '****9876',
      value3: 'fxtrade',
      changed: ['value1', 'value2', 'value3'],
    });
    expect(audit.before).toMatchObject({ key: 'oandaAPI', value2: '' });
    expect(JSON.stringify(audit)).not.toContain('oanda-secret-token');
  });

  it('keeps the currency quota the server maintains', async () => {
    await putSetting(t.ctx.db, 'currencyAPI', { value2: '227', value3: '300' });
    const res = await call('PUT', '/api/admin/apis/currencyAPI', {
      key: 'currencyAPI',
      value1: 'cur-key',
      value2: '999999',
      value3: '999999',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Currency API updated successfully');
    expect(await getSetting(t.ctx.db, 'currencyAPI')).toMatchObject({
      value1: 'cur-key',
      value2: '227',
      value3: '300',
    });
    const row = (await call('GET', '/api/admin/apis')).json().find((r: { key: string }) => r.key === 'currencyAPI');
    expect(row).toMatchObject({ value1: 'cur-key', value2: '227', value3: '300' });
  });

  it('has the running market switch to the provider at once', async () => {
    // Only Polygon (pointed at the local fake) is configured, so nothing reaches out to a real provider.
    for (const key of ['eodAPI', 'oandaAPI', 'currencyAPI']) await putSetting(t.ctx.db, key, { value1: '' });
    const feeds = t.ctx.market.feeds!;
    await feeds.start();
    expect(feeds.sources().forex).not.toBe('polygonForex');
    const reload = vi.spyOn(feeds, 'reload');
    const res = await call('PUT', '/api/admin/apis/polygonAPI', { key: 'polygonAPI', value1: 'poly-live-key-1234' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Polygon updated successfully');
    expect(reload).toHaveBeenCalledOnce();
    expect(feeds.sources()).toMatchObject({ forex: 'polygonForex', crypto: 'polygonCrypto' });
    await waitFor(
      'the Polygon session with the new key',
      () => polygon.authed('forex') > 0 && polygon.authed('crypto') > 0,
    );
    expect(polygon.auths).toContain('poly-live-key-1234');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'settings.api_update'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit.after).toMatchObject({ key: 'polygonAPI', value1: '****1234' });
    reload.mockRestore();
  });
});
