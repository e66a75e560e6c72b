import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerfectmoneyAdapter } from './perfectmoney.ts';
import {
  FakeProvider,
  incoming,
  NOW,
  nowSeconds,
  type Handler,
  type RecordedRequest,
} from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const USD_WALLET = 'U12345678';
const EUR_WALLET = 'E87654321';
const PASSPHRASE = 'alt-Passphrase-0000';
const keys: GatewayKeys = { key1: USD_WALLET, key2: EUR_WALLET, key3: PASSPHRASE, key4: null, key5: null };

const req: CheckoutRequest = {
  reference: 'dep_Pm42qwerty',
  amount: '150.00',
  currency: 'USD',
  customer: { id: 4, email: 'ana@example.com', fullName: 'Ana Silva' },
  description: 'Deposit #42',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Pm42qwerty',
    cancelUrl: 'https://broker.example/payments/return/dep_Pm42qwerty?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/perfectmoney/callback',
  },
};

const md5Upper = (s: string) => createHash('md5').update(s).digest('hex').toUpperCase();

/**
 * Perfect Money's SCI as documented: the merchant's hidden form is posted to /api/step1.asp; once the payer paid,
 * Perfect Money posts the payment to STATUS_URL with V2_HASH signed by the payee's alternate passphrase.
 */
class FakePerfectMoney {
  private batch = 712_000_000;

  handler: Handler = (r, reply) => {
    if (r.method !== 'POST' || r.path !== '/api/step1.asp') return reply.text(404, 'Not found');
    for (const name of [
      'PAYEE_ACCOUNT',
      'PAYEE_NAME',
      'PAYMENT_AMOUNT',
      'PAYMENT_UNITS',
      'PAYMENT_ID',
      'STATUS_URL',
      'PAYMENT_URL',
      'NOPAYMENT_URL',
    ]) {
      if (!r.form.get(name)) return reply.text(400, `Invalid ${name}`);
    }
    if (!/^[UE]\d+$/.test(r.form.get('PAYEE_ACCOUNT')!)) return reply.text(400, 'Invalid Payee Account');
    if (!/^\d+\.\d{2}$/.test(r.form.get('PAYMENT_AMOUNT')!)) return reply.text(400, 'Invalid Payment Amount');
    reply.text(200, '<html>Perfect Money payment</html>');
  };

  /** What Perfect Money posts to STATUS_URL after the payer paid the form. */
  statusPost(form: URLSearchParams, opts: { passphrase?: string; timestamp?: number; payer?: string } = {}) {
    const fields = {
      PAYEE_ACCOUNT: form.get('PAYEE_ACCOUNT')!,
      PAYMENT_ID: form.get('PAYMENT_ID')!,
      PAYMENT_AMOUNT: form.get('PAYMENT_AMOUNT')!,
      PAYMENT_UNITS: form.get('PAYMENT_UNITS')!,
      PAYMENT_BATCH_NUM: String(this.batch++),
      PAYER_ACCOUNT: opts.payer ?? 'U99990000',
      TIMESTAMPGMT: String(opts.timestamp ?? nowSeconds()),
    };
    const v2 = md5Upper(
      [
        fields.PAYMENT_ID,
        fields.PAYEE_ACCOUNT,
        fields.PAYMENT_AMOUNT,
        fields.PAYMENT_UNITS,
        fields.PAYMENT_BATCH_NUM,
        fields.PAYER_ACCOUNT,
        md5Upper(opts.passphrase ?? PASSPHRASE),
        fields.TIMESTAMPGMT,
      ].join(':'),
    );
    return new URLSearchParams({ ...fields, V2_HASH: v2, SUGGESTED_MEMO: form.get('SUGGESTED_MEMO') ?? '' });
  }
}

const asCallback = (body: URLSearchParams) =>
  incoming({ body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('Perfect Money adapter', () => {
  let fake: FakeProvider;
  let pm: FakePerfectMoney;
  beforeAll(async () => {
    pm = new FakePerfectMoney();
    fake = await FakeProvider.start(pm.handler);
  });
  afterAll(() => fake.close());
  const adapter = () => createPerfectmoneyAdapter({ baseUrl: fake.url, now: () => NOW });

  /** The browser posts the hidden form to the provider, as the deposit page does. */
  async function postForm(currency = 'USD'): Promise<RecordedRequest> {
    const checkout = await adapter().createCheckout(keys, { ...req, currency });
    if (checkout.type !== 'form') throw new Error('expected a form');
    const res = await fetch(checkout.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(checkout.fields).toString(),
    });
    expect(res.status).toBe(200);
    return fake.last('/api/step1.asp')!;
  }

  it('returns the SCI form for the wallet of the deposit currency', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout).toMatchObject({
      type: 'form',
      action: `${fake.url}/api/step1.asp`,
      fields: {
        PAYEE_ACCOUNT: USD_WALLET,
        PAYMENT_AMOUNT: '150.00',
        PAYMENT_UNITS: 'USD',
        PAYMENT_ID: req.reference,
        STATUS_URL: req.urls.callbackUrl,
        PAYMENT_URL: req.urls.returnUrl,
        NOPAYMENT_URL: req.urls.cancelUrl,
      },
    });
    expect((await postForm('EUR')).form.get('PAYEE_ACCOUNT')).toBe(EUR_WALLET);
    expect((await createPerfectmoneyAdapter().createCheckout(keys, req)).type === 'form').toBe(true);
  });

  it('starts nothing without the alternate passphrase, or in a currency it has no wallet for', async () => {
    await expect(adapter().createCheckout({ ...keys, key3: null }, req)).rejects.toThrow(/passphrase/);
    await expect(adapter().createCheckout(keys, { ...req, currency: 'GBP' })).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter().createCheckout({ ...keys, key2: null }, { ...req, currency: 'EUR' })).rejects.toBeInstanceOf(
      ProviderError,
    );
  });

  it('confirms a status post whose V2_HASH is signed with the alternate passphrase', async () => {
    const post = pm.statusPost((await postForm()).form);
    const c = await adapter().verifyCallback(keys, asCallback(post));
    expect(c).toEqual({
      eventId: `batch:${post.get('PAYMENT_BATCH_NUM')}`,
      reference: req.reference,
      outcome: 'approved',
      amount: '150',
      currency: 'USD',
      providerRef: post.get('PAYMENT_BATCH_NUM'),
    });
  });

  it('refuses a status post signed with another passphrase, or unsigned', async () => {
    const form = (await postForm()).form;
    await expect(
      adapter().verifyCallback(keys, asCallback(pm.statusPost(form, { passphrase: 'guess' }))),
    ).rejects.toThrow(/signature/);
    const unsigned = pm.statusPost(form);
    unsigned.delete('V2_HASH');
    await expect(adapter().verifyCallback(keys, asCallback(unsigned))).rejects.toBeInstanceOf(CallbackRejected);
  });

  it('refuses every callback when the passphrase is not configured', async () => {
    const post = pm.statusPost((await postForm()).form);
    await expect(adapter().verifyCallback({ ...keys, key3: null }, asCallback(post))).rejects.toThrow(/passphrase/);
  });

  it('refuses a stale timestamp', async () => {
    const post = pm.statusPost((await postForm()).form, { timestamp: nowSeconds() - 600 });
    await expect(adapter().verifyCallback(keys, asCallback(post))).rejects.toThrow(/stale/);
  });

  it('refuses a tampered amount, reference or payee', async () => {
    const form = (await postForm()).form;
    for (const [name, value] of [
      ['PAYMENT_AMOUNT', '1500.00'],
      ['PAYMENT_ID', 'dep_otherDeposit'],
      ['PAYEE_ACCOUNT', 'U00000001'],
    ] as const) {
      const post = pm.statusPost(form);
      post.set(name, value);
      await expect(adapter().verifyCallback(keys, asCallback(post))).rejects.toThrow(/signature/);
    }
  });

  it("refuses a genuine payment made to a wallet that is not this gateway's", async () => {
    const form = new URLSearchParams((await postForm()).form);
    form.set('PAYEE_ACCOUNT', 'U55555555');
    await expect(adapter().verifyCallback(keys, asCallback(pm.statusPost(form)))).rejects.toThrow(/another wallet/);
  });
});
