import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { SECRET_MASK } from '@platform/domain';
import { createTestApp, DEMO, multipart, PNG_BYTES, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, paymentGateways } from '../../db/schema.ts';

let t: TestApp;
let admin: string;

const put = (name: string, fields: Record<string, string>, files: Record<string, { data: Buffer }> = {}) => {
  const form = multipart(fields, files);
  return t.app.inject({
    method: 'PUT',
    url: `/api/admin/gateways/${name}`,
    headers: { cookie: admin, ...form.headers },
    payload: form.payload,
  });
};
const card = async (kind: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/gateways', headers: { cookie: admin } }))
    .json()
    .data.find((g: { value: string }) => g.value === kind);

beforeAll(async () => {
  // The sandbox card is described as usable only where it may run; the suite also runs on PostgreSQL.
  t = await createTestApp({ PAYMENTS_SANDBOX: 'true' });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

describe('gateways', () => {
  it('lists one card per kind with its own fields, secrets masked, and a note on how it works', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/gateways', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const kinds = res.json().data.map((g: { value: string }) => g.value);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'stripe',
        'paypal',
        'flutterwave',
        'coinpayments',
        'wipays',
        'perfectmoney',
        'globiance',
        'moonpay',
        'prmoney',
        'bank',
        'btc',
        'usdt',
        'sandbox',
      ]),
    );
    const sandbox = await card('sandbox');
    expect(sandbox.key1).toBe(SECRET_MASK);
    expect(sandbox.note).toMatch(/No real money/);
    expect(JSON.stringify(res.json())).not.toContain(
      (await t.ctx.db.select().from(paymentGateways).where(eq(paymentGateways.kind, 'sandbox')))[0].key1,
    );
  });

  it('keeps a stored secret when the mask comes back, saves new ones write-only, and audits without them', async () => {
    expect(
      (await put('stripe', { key1: 'sk_test_123', key2: 'whsec_abc', fee: '2.9', isActive: 'false' })).json().message,
    ).toBe('Stripe updated successfully');
    expect(await card('stripe')).toMatchObject({
      key1: SECRET_MASK,
      key2: SECRET_MASK,
      fee: '2.9000',
      is_active: false,
    });
    await put('stripe', { key1: SECRET_MASK, key2: '', fee: '3' });
    const [row] = await t.ctx.db.select().from(paymentGateways).where(eq(paymentGateways.kind, 'stripe'));
    expect(row).toMatchObject({ key1: 'sk_test_123', key2: 'whsec_abc', fee: '3.0000' });
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'gateway.update'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(JSON.stringify(audit)).not.toContain('sk_test_123');
    expect(audit.before).toMatchObject({ kind: 'stripe', fee: '2.9000' });
    expect(audit.after).toMatchObject({ kind: 'stripe', fee: '3.0000', key1: '(set)' });
  });

  it('refuses to switch a gateway on without its required fields, and refuses bad values', async () => {
    const res = await put('flutterwave', { key1: 'FLWPUBK-1', isActive: 'true' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Secret Key is required/);
    expect((await put('paypal', { key3: 'production' })).statusCode).toBe(400);
    expect((await put('stripe', { fee: '150' })).statusCode).toBe(400);
    expect((await put('nope', { fee: '1' })).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/admin/gateways/stripe',
          headers: { cookie: admin },
          payload: { fee: '1' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('takes a QR image for crypto gateways, checked by content', async () => {
    expect(
      (await put('btc', { key1: 'bc1qnewaddress' }, { file: { data: Buffer.from('not an image') } })).statusCode,
    ).toBe(400);
    expect((await put('btc', { key1: 'bc1qnewaddress' }, { file: { data: PNG_BYTES } })).statusCode).toBe(200);
    const btc = await card('btc');
    expect(btc.key1).toBe('bc1qnewaddress');
    expect(btc.file).toMatch(/^\/api\/files\//);
    const client = await signIn(t.app, DEMO.client);
    expect((await t.app.inject({ method: 'GET', url: btc.file, headers: { cookie: client } })).statusCode).toBe(200);
  });

  it('is for admins only', async () => {
    const manager = await signIn(t.app, DEMO.manager);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/gateways', headers: { cookie: manager } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/gateways' })).statusCode).toBe(401);
  });
});

describe('external payments', () => {
  it('adds one with a logo, shows it to clients as a deposit option, edits and deletes it', async () => {
    const noLogo = multipart({ name: 'Skrill', link: 'https://skrill.example/pay' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/externalPayments',
      headers: { cookie: admin, ...noLogo.headers },
      payload: noLogo.payload,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Logo is required');
    const badLink = multipart({ name: 'Skrill', link: 'javascript:alert(1)' }, { logo: { data: PNG_BYTES } });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/externalPayments',
          headers: { cookie: admin, ...badLink.headers },
          payload: badLink.payload,
        })
      ).statusCode,
    ).toBe(400);

    const form = multipart(
      { name: 'Skrill', link: 'https://skrill.example/pay', customLabel: 'Account', customValue: 'broker@skrill' },
      { logo: { data: PNG_BYTES } },
    );
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/admin/externalPayments',
      headers: { cookie: admin, ...form.headers },
      payload: form.payload,
    });
    expect(added.json().message).toBe('External payment added successfully');
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/admin/externalPayments/api', headers: { cookie: admin } })
    ).json();
    const item = list.data[0];
    expect(item).toMatchObject({
      name: 'Skrill',
      link: 'https://skrill.example/pay',
      custom_label: 'Account',
      custom_value: 'broker@skrill',
    });

    const client = await signIn(t.app, DEMO.client);
    const options = (
      await t.app.inject({ method: 'GET', url: '/api/deposits/gateways', headers: { cookie: client } })
    ).json().data;
    expect(options.find((o: { value: string }) => o.value === `external:${item.id}`)).toMatchObject({
      group: 'external',
      link: 'https://skrill.example/pay',
    });

    const edit = multipart({ name: 'Skrill EU', link: 'https://skrill.example/eu' });
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/admin/externalPayments/${item.id}`,
          headers: { cookie: admin, ...edit.headers },
          payload: edit.payload,
        })
      ).json().message,
    ).toBe('External payment updated successfully');
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/admin/externalPayments/api', headers: { cookie: admin } })
    ).json().data[0];
    expect(after).toMatchObject({ name: 'Skrill EU', logo: item.logo });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/externalPayments/${item.id}`,
          headers: { cookie: admin },
        })
      ).json().message,
    ).toBe('Payment deleted successfully');
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/externalPayments/${item.id}`,
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(404);
  });
});
