import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeProvider, incoming, NOW, nowSeconds, type Handler } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';
import { createWipaysAdapter } from './wipays.ts';

const PUBLIC = 'pub_fake_wipays_0000';
const SECRET = 'sec_fake_wipays_0000';
const keys: GatewayKeys = { key1: PUBLIC, key2: SECRET, key3: null, key4: null, key5: null };

const req: CheckoutRequest = {
  reference: 'dep_Wp19mnbvcx',
  amount: '75.00',
  currency: 'USD',
  customer: { id: 21, email: 'leo@example.com', fullName: 'Leo van der Berg' },
  description: 'Deposit #19',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Wp19mnbvcx',
    cancelUrl: 'https://broker.example/payments/return/dep_Wp19mnbvcx?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/wipays/callback',
  },
};

/** WiPays as documented: POST /payment/initiate with public_key in the JSON body; answers a checkout redirect_url. */
const wipaysApi: Handler = (r, reply) => {
  if (r.method !== 'POST' || r.path !== '/payment/initiate')
    return reply.json(404, { status: 'error', message: 'Not found' });
  const b = r.json as Record<string, unknown> | undefined;
  if (!b || b.public_key !== PUBLIC) return reply.json(401, { status: 'error', message: ['Invalid API key'] });
  for (const name of [
    'amount',
    'cancel_url',
    'currency',
    'customer',
    'details',
    'identifier',
    'ipn_url',
    'site_name',
    'success_url',
  ]) {
    if (!b[name]) return reply.json(422, { status: 'error', message: [`The ${name} field is required.`] });
  }
  reply.json(200, {
    status: 'success',
    message: 'Payment initiated successfully',
    redirect_url: `https://wipays.com/payment/checkout?payment_trx=${randomBytes(6).toString('hex').toUpperCase()}`,
  });
};

/** An IPN as WiPays sends it: signature = uppercase HMAC-SHA256 of identifier + timestamp under the secret key. */
function ipn(
  status: string,
  data: Record<string, unknown> = {},
  opts: { secret?: string; t?: number; identifier?: string } = {},
) {
  const identifier = opts.identifier ?? req.reference;
  const timestamp = opts.t ?? nowSeconds();
  const signature = createHmac('sha256', opts.secret ?? SECRET)
    .update(`${identifier}${timestamp}`)
    .digest('hex')
    .toUpperCase();
  return {
    identifier,
    status,
    signature,
    timestamp,
    data: {
      trx: 'TRX7731',
      amount: '75.00',
      currency: 'USD',
      type: 'checkout',
      timestamp: '2025-05-12 10:30:00',
      ...data,
    },
  };
}
const asJson = (body: object) =>
  incoming({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('WiPays adapter', () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await FakeProvider.start(wipaysApi);
  });
  beforeEach(() => fake.use(wipaysApi));
  afterAll(() => fake.close());
  const adapter = () => createWipaysAdapter({ baseUrl: fake.url, now: () => NOW });

  it('initiates a hosted payment for our reference and returns its checkout page', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout.type).toBe('redirect');
    if (checkout.type === 'redirect')
      expect(checkout.url).toMatch(/^https:\/\/wipays\.com\/payment\/checkout\?payment_trx=/);
    expect(checkout.providerRef).toMatch(/^[0-9A-F]{12}$/);
    expect(fake.last('/payment/initiate')!.json).toMatchObject({
      public_key: PUBLIC,
      amount: '75.00',
      currency: 'USD',
      identifier: req.reference,
      ipn_url: req.urls.callbackUrl,
      success_url: req.urls.returnUrl,
      cancel_url: req.urls.cancelUrl,
      customer: { first_name: 'Leo', last_name: 'van der Berg', email: 'leo@example.com' },
      site_name: 'broker.example',
    });
  });

  it('turns a refused request into a ProviderError without the key', async () => {
    const err = await adapter()
      .createCheckout({ ...keys, key1: 'pub_wrong_wrong_wrong' }, req)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('Invalid API key');
    expect((err as Error).message).not.toContain('pub_wrong_wrong_wrong');
    fake.use((_r, reply) => reply.text(500, '<html>error</html>'));
    await expect(adapter().createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
  });

  it('records a signed successful checkout IPN, but as pending: its status and amount are not signed', async () => {
    const body = ipn('success');
    const c = await adapter().verifyCallback(keys, asJson(body));
    expect(c).toMatchObject({
      eventId: `${req.reference}:${body.timestamp}`,
      reference: req.reference,
      outcome: 'pending',
      amount: '75',
      currency: 'USD',
      providerRef: 'TRX7731',
    });
    expect(c.note).toMatch(/^WiPays says paid: 75 USD\. WiPays does not sign the status or amount/);
  });

  it('reads a form-encoded IPN the same way', async () => {
    const b = ipn('success');
    const form = new URLSearchParams({
      identifier: b.identifier,
      status: b.status,
      signature: b.signature,
      timestamp: String(b.timestamp),
    });
    for (const [k, v] of Object.entries(b.data)) form.set(`data[${k}]`, String(v));
    await expect(
      adapter().verifyCallback(
        keys,
        incoming({ body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      ),
    ).resolves.toMatchObject({ outcome: 'pending', amount: '75', note: expect.stringContaining('says paid') });
  });

  it('settles nothing by itself: failures and chargeback notices are pending too, with what WiPays claims', async () => {
    await expect(adapter().verifyCallback(keys, asJson(ipn('failed')))).resolves.toMatchObject({
      outcome: 'pending',
      note: expect.stringContaining('not paid (failed)'),
    });
    await expect(
      adapter().verifyCallback(keys, asJson(ipn('success', { type: 'chargeback_initiated' }))),
    ).resolves.toMatchObject({ outcome: 'pending', note: expect.stringContaining('chargeback_initiated notice') });
  });

  it('refuses a wrong or missing signature', async () => {
    await expect(
      adapter().verifyCallback(keys, asJson(ipn('success', {}, { secret: 'sec_attacker' }))),
    ).rejects.toThrow(/signature/);
    const { signature: _drop, ...unsigned } = ipn('success');
    await expect(adapter().verifyCallback(keys, asJson(unsigned))).rejects.toBeInstanceOf(CallbackRejected);
  });

  it('refuses a stale timestamp', async () => {
    await expect(adapter().verifyCallback(keys, asJson(ipn('success', {}, { t: nowSeconds() - 900 })))).rejects.toThrow(
      /stale/,
    );
  });

  it('refuses a tampered identifier or timestamp', async () => {
    const body = ipn('success');
    await expect(adapter().verifyCallback(keys, asJson({ ...body, identifier: 'dep_otherDeposit' }))).rejects.toThrow(
      /signature/,
    );
    await expect(adapter().verifyCallback(keys, asJson({ ...body, timestamp: body.timestamp + 1 }))).rejects.toThrow(
      /signature/,
    );
    await expect(
      adapter().verifyCallback(
        keys,
        incoming({ body: '{"identifier":', headers: { 'content-type': 'application/json' } }),
      ),
    ).rejects.toBeInstanceOf(CallbackRejected);
  });

  it('names one event per signed message, so an altered copy of an IPN cannot settle a deposit again', async () => {
    const original = ipn('failed');
    const altered = { ...original, status: 'success' };
    const a = await adapter().verifyCallback(keys, asJson(original));
    const b = await adapter().verifyCallback(keys, asJson(altered));
    expect(b.eventId).toBe(a.eventId);
  });
});
