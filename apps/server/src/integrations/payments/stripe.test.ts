import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStripeAdapter } from './stripe.ts';
import { FakeProvider, incoming, NOW, nowSeconds, type Handler } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const SECRET_KEY = 'sk_test_51Fake0000secret';
const WEBHOOK_SECRET = 'whsec_fake0000signing';
const keys: GatewayKeys = { key1: SECRET_KEY, key2: WEBHOOK_SECRET, key3: null, key4: null, key5: null };

const req: CheckoutRequest = {
  reference: 'dep_7Hq2xK9mP4',
  amount: '102.50',
  currency: 'USD',
  customer: { id: 7, email: 'jane@example.com', fullName: 'Jane Doe' },
  description: 'Deposit #41',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_7Hq2xK9mP4',
    cancelUrl: 'https://broker.example/payments/return/dep_7Hq2xK9mP4?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/stripe/callback',
  },
};

/** Stripe's Checkout Sessions API as documented: form-encoded, Bearer secret key, errors as {error:{message}}. */
const stripeApi: Handler = (r, reply) => {
  if (r.headers.authorization !== `Bearer ${SECRET_KEY}`) {
    return reply.json(401, {
      error: {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${String(r.headers.authorization).slice(7)}`,
      },
    });
  }
  if (r.method !== 'POST' || r.path !== '/v1/checkout/sessions')
    return reply.json(404, { error: { message: 'Unrecognized request URL' } });
  if (!String(r.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
    return reply.json(400, { error: { message: 'Invalid request' } });
  const f = r.form;
  for (const name of [
    'mode',
    'success_url',
    'cancel_url',
    'line_items[0][price_data][currency]',
    'line_items[0][price_data][unit_amount]',
    'line_items[0][quantity]',
  ]) {
    if (!f.get(name))
      return reply.json(400, { error: { type: 'invalid_request_error', message: `Missing required param: ${name}.` } });
  }
  if (!/^\d+$/.test(f.get('line_items[0][price_data][unit_amount]') ?? ''))
    return reply.json(400, { error: { message: 'Invalid integer' } });
  const id = `cs_test_${randomBytes(8).toString('hex')}`;
  reply.json(200, {
    id,
    object: 'checkout.session',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    client_reference_id: f.get('client_reference_id'),
    status: 'open',
  });
};

/** An event as Stripe posts it to the webhook endpoint, signed with the endpoint's secret. */
function stripeEvent(type: string, session: Record<string, unknown>, opts: { secret?: string; t?: number } = {}) {
  const body = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    created: nowSeconds(),
    data: {
      object: {
        id: 'cs_test_a1',
        object: 'checkout.session',
        client_reference_id: req.reference,
        amount_total: 10250,
        currency: 'usd',
        payment_status: 'paid',
        ...session,
      },
    },
  });
  const t = opts.t ?? nowSeconds();
  const v1 = createHmac('sha256', opts.secret ?? WEBHOOK_SECRET)
    .update(`${t}.${body}`)
    .digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1},v0=ignored` } };
}

describe('Stripe adapter', () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await FakeProvider.start(stripeApi);
  });
  beforeEach(() => fake.use(stripeApi));
  afterAll(() => fake.close());
  const adapter = () => createStripeAdapter({ baseUrl: fake.url, now: () => NOW });

  it('opens a Checkout Session for the deposit total in minor units and returns its hosted page', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout.type).toBe('redirect');
    if (checkout.type !== 'redirect') return;
    expect(checkout.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(checkout.providerRef).toMatch(/^cs_test_/);
    const sent = fake.last('/v1/checkout/sessions')!;
    expect(sent.form.get('mode')).toBe('payment');
    expect(sent.form.get('client_reference_id')).toBe(req.reference);
    expect(sent.form.get('line_items[0][price_data][unit_amount]')).toBe('10250');
    expect(sent.form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(sent.form.get('success_url')).toBe(req.urls.returnUrl);
    expect(sent.form.get('cancel_url')).toBe(req.urls.cancelUrl);
    expect(sent.headers['idempotency-key']).toBe(`checkout-${req.reference}`);
  });

  it('sends zero-decimal currencies as whole units and refuses fractions of them', async () => {
    await adapter().createCheckout(keys, { ...req, amount: '1500.00', currency: 'JPY' });
    expect(fake.last('/v1/checkout/sessions')!.form.get('line_items[0][price_data][unit_amount]')).toBe('1500');
    await expect(adapter().createCheckout(keys, { ...req, amount: '1500.50', currency: 'JPY' })).rejects.toBeInstanceOf(
      ProviderError,
    );
  });

  it('turns a refused request into a ProviderError that does not repeat the key', async () => {
    const err = await adapter()
      .createCheckout({ ...keys, key1: 'sk_test_wrongwrongwrong' }, req)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('401');
    expect((err as Error).message).not.toContain('sk_test_wrongwrongwrong');
  });

  it('turns a provider outage into a ProviderError', async () => {
    fake.use((_r, reply) => reply.text(503, 'upstream unavailable'));
    await expect(adapter().createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
    await expect(
      createStripeAdapter({ baseUrl: 'http://127.0.0.1:1' }).createCheckout(keys, req),
    ).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter().createCheckout({ ...keys, key1: null }, req)).rejects.toBeInstanceOf(ProviderError);
  });

  it('confirms a signed checkout.session.completed as approved', async () => {
    const e = stripeEvent('checkout.session.completed', {});
    const c = await adapter().verifyCallback(keys, incoming(e));
    expect(c).toMatchObject({
      reference: req.reference,
      outcome: 'approved',
      amount: '102.50',
      currency: 'USD',
      providerRef: 'cs_test_a1',
    });
    expect(c.eventId).toBe(JSON.parse(e.body).id);
  });

  it('maps an unpaid completion to pending, and expiry or async failure to declined', async () => {
    await expect(
      adapter().verifyCallback(keys, incoming(stripeEvent('checkout.session.completed', { payment_status: 'unpaid' }))),
    ).resolves.toMatchObject({ outcome: 'pending' });
    await expect(
      adapter().verifyCallback(keys, incoming(stripeEvent('checkout.session.expired', { payment_status: 'unpaid' }))),
    ).resolves.toMatchObject({ outcome: 'declined' });
    await expect(
      adapter().verifyCallback(
        keys,
        incoming(stripeEvent('checkout.session.async_payment_failed', { payment_status: 'unpaid' })),
      ),
    ).resolves.toMatchObject({ outcome: 'declined' });
    await expect(
      adapter().verifyCallback(keys, incoming(stripeEvent('checkout.session.async_payment_succeeded', {}))),
    ).resolves.toMatchObject({ outcome: 'approved' });
  });

  it('refuses a callback signed with another secret, or not signed', async () => {
    await expect(
      adapter().verifyCallback(
        keys,
        incoming(stripeEvent('checkout.session.completed', {}, { secret: 'whsec_attacker' })),
      ),
    ).rejects.toBeInstanceOf(CallbackRejected);
    const e = stripeEvent('checkout.session.completed', {});
    await expect(
      adapter().verifyCallback(keys, incoming({ body: e.body, headers: { 'content-type': 'application/json' } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    await expect(
      adapter().verifyCallback(
        keys,
        incoming({ body: e.body, headers: { 'stripe-signature': `t=${nowSeconds()},v1=zz` } }),
      ),
    ).rejects.toBeInstanceOf(CallbackRejected);
  });

  it('refuses a stale timestamp', async () => {
    const e = stripeEvent('checkout.session.completed', {}, { t: nowSeconds() - 6 * 60 });
    await expect(adapter().verifyCallback(keys, incoming(e))).rejects.toThrow(/stale/);
  });

  it('refuses a tampered body', async () => {
    const e = stripeEvent('checkout.session.completed', {});
    const tampered = e.body.replace('"amount_total":10250', '"amount_total":99999');
    expect(tampered).not.toBe(e.body);
    await expect(adapter().verifyCallback(keys, incoming({ ...e, body: tampered }))).rejects.toThrow(/signature/);
  });

  it('refuses event types it does not settle', async () => {
    await expect(adapter().verifyCallback(keys, incoming(stripeEvent('customer.created', {})))).rejects.toBeInstanceOf(
      CallbackRejected,
    );
  });
});
