import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { leads } from '../../db/schema.ts';
import { crmKit } from './crm-testing.ts';

let t: TestApp;
let seq = 0;
const { call, lead, row, start } = crmKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('sales statuses', () => {
  it('lists the seeded statuses with New the only default, 999 at once; readable by lead workers, not customers', async () => {
    const res = await call(1, 'GET', '/admin/crm-config/sales-statuses/api?page=1&limit=999');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{ status: string; is_default: boolean }>;
    expect(data.map((s) => s.status)).toEqual(
      expect.arrayContaining(['New', 'Contacted', 'Interested', 'Not Interested', 'Call Back', 'No Answer']),
    );
    expect(data.filter((s) => s.is_default).map((s) => s.status)).toEqual(['New']);
    for (const role of [2, 4, 5, 6])
      expect((await call(role, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(200);
    expect((await call(3, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/admin/crm-config/sales-statuses/api')).statusCode).toBe(401);
  });

  it('adds, renames (leads follow), moves the default and deletes; refuses bad input, duplicates, the default and statuses in use', async () => {
    const name = `Hot ${seq++}`;
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: name, isDefault: false })).json(),
    ).toEqual({ message: 'Sales Status added successfully' });
    expect(
      (await call(5, 'POST', '/admin/crm-config/sales-statuses', { status: 'X', isDefault: false })).statusCode,
    ).toBe(403);
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: name, isDefault: false })).statusCode,
    ).toBe(409);
    const bad = await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: '', isDefault: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ status: 'Status is required', isDefault: 'isDefault is required' });
    expect(
      (await call(1, 'POST', '/admin/crm-config/sales-statuses', { status: 'a_b', isDefault: false })).statusCode,
    ).toBe(400);

    const list = (
      await call(2, 'GET', `/admin/crm-config/sales-statuses/api?search=${encodeURIComponent(name)}`)
    ).json().data;
    const id = list[0].id as number;
    const l = await lead({ leadStatus: name });
    expect(
      (
        await call(2, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: false })
      ).json().message,
    ).toBe('Sales Status updated successfully');
    expect((await row(l.id)).leadStatus).toBe(`${name} Lead`);

    const del = await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain('1 lead has the status');

    // Making it the default takes the flag from New; the default cannot be unset nor deleted.
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: true }))
        .statusCode,
    ).toBe(200);
    const defaults = (await call(1, 'GET', '/admin/crm-config/sales-statuses/api?limit=999'))
      .json()
      .data.filter((s: { is_default: boolean }) => s.is_default);
    expect(defaults.map((s: { id: number }) => s.id)).toEqual([id]);
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${id}`, { status: `${name} Lead`, isDefault: false }))
        .statusCode,
    ).toBe(409);
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).statusCode).toBe(409);
    const newId = (await call(1, 'GET', '/admin/crm-config/sales-statuses/api?search=New'))
      .json()
      .data.find((s: { status: string }) => s.status === 'New').id;
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/${newId}`, { status: 'New', isDefault: true }))
        .statusCode,
    ).toBe(200);

    await t.ctx.db.update(leads).set({ leadStatus: 'New' }).where(eq(leads.id, l.id));
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).json()).toEqual({
      message: 'Sales Status deleted successfully',
    });
    expect((await call(1, 'DELETE', `/admin/crm-config/sales-statuses/${id}`)).statusCode).toBe(404);
    expect(
      (await call(1, 'PUT', `/admin/crm-config/sales-statuses/999999`, { status: 'Y', isDefault: false })).statusCode,
    ).toBe(404);
  });
});
