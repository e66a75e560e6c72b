import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaypalAdapter } from './paypal.ts';
import { FakeProvider, incoming, NOW, type Handler } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const CLIENT = 'AcFakeClientKey000';
const SECRET = 'EFakeSecretKey0000';
const keys: GatewayKeys = { key1: CLIENT, key2: SECRET, key3: 'sandbox', key4: null, key5: null };

const req: CheckoutRequest = {
  reference: 'dep_Pp01xYz789',
  amount: '51.25',
  currency: 'EUR',
  customer: { id: 3, email: 'max@example.com', fullName: 'Max Muster' },
  description: 'Deposit #12',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Pp01xYz789',
    cancelUrl: 'https://broker.example/payments/return/dep_Pp01xYz789?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/paypal/callback',
  },
};

interface FakeOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  unit: { reference_id: string; custom_id: string; amount: { currency_code: string; value: string } };
  capture?: { id: string; status: string; amount: { currency_code: string; value: string }; custom_id: string };
  declineCapture?: boolean;
}

/** PayPal's REST API as documented: OAuth2 client credentials, then Orders v2 with the Bearer token. */
class FakePaypal {
  readonly orders = new Map<string, FakeOrder>();
  readonly token = `A21AA${randomBytes(12).toString('hex')}`;
  tokensIssued = 0;

  handler: Handler = (r, reply) => {
    if (r.path === '/v1/oauth2/token') {
      const basic = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;
      if (r.headers.authorization !== basic || r.form.get('grant_type') !== 'client_credentials') {
        return reply.json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      this.tokensIssued += 1;
      return reply.json(200, { scope: 'https://uri.paypal.com/services/payments/payment', access_token: this.token, token_type: 'Bearer', expires_in: 32400 });
    }
    if (r.headers.authorization !== `Bearer ${this.token}`) return reply.json(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' });
    if (r.method === 'POST' && r.path === '/v2/checkout/orders') {
      const body = r.json as { intent?: string; purchase_units?: Array<FakeOrder['unit']> };
      const unit = body?.purchase_units?.[0];
      if (body?.intent !== 'CAPTURE' || !unit?.amount?.value || !/^\d+(\.\d{2})?$/.test(unit.amount.value)) {
        return reply.json(400, { name: 'INVALID_REQUEST', message: 'Request is not well-formed, syntactically incorrect, or violates schema.', details: [{ issue: 'INVALID_PARAMETER_VALUE' }] });
      }
      const id = randomBytes(8).toString('hex').toUpperCase();
      this.orders.set(id, { id, status: 'PAYER_ACTION_REQUIRED', unit: { reference_id: unit.reference_id, custom_id: unit.custom_id, amount: unit.amount } });
      return reply.json(200, {
        id, status: 'PAYER_ACTION_REQUIRED',
        links: [
          { href: `${r.headers.host}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
          { href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        ],
      });
    }
    const m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(r.path);
    const order = m ? this.orders.get(m[1]) : undefined;
    if (!order) return reply.json(404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
    if (r.method === 'POST' && m?.[2]) {
      if (order.status === 'COMPLETED') return reply.json(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });
      if (order.status !== 'APPROVED') return reply.json(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] });
      order.status = 'COMPLETED';
      order.capture = { id: `CAP${randomBytes(6).toString('hex').toUpperCase()}`, status: order.declineCapture ? 'DECLINED' : 'COMPLETED', amount: order.unit.amount, custom_id: order.unit.custom_id };
    }
    return reply.json(r.method === 'POST' ? 201 : 200, this.representation(order));
  };

  representation(o: FakeOrder) {
    return { id: o.id, status: o.status, purchase_units: [{ ...o.unit, payments: o.capture ? { captures: [o.capture] } : undefined }] };
  }

  approve(id: string, opts: { decline?: boolean } = {}) {
    const o = this.orders.get(id)!;
    o.status = 'APPROVED';
    o.declineCapture = opts.decline;
  }
}

describe('PayPal adapter', () => {
  let fake: FakeProvider;
  let paypal: FakePaypal;
  beforeAll(async () => {
    paypal = new FakePaypal();
    fake = await FakeProvider.start(paypal.handler);
  });
  beforeEach(() => fake.use(paypal.handler));
  afterAll(() => fake.close());
  const adapter = () => createPaypalAdapter({ baseUrl: fake.url, now: () => NOW });

  it('creates a CAPTURE order for our reference and returns its approve link', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout.type).toBe('redirect');
    if (checkout.type !== 'redirect') return;
    expect(checkout.url).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${checkout.providerRef}`);
    const sent = fake.last('/v2/checkout/orders')!.json as { purchase_units: Array<Record<string, unknown>>; payment_source: { paypal: { experience_context: Record<string, string> } } };
    expect(sent.purchase_units[0]).toMatchObject({ reference_id: req.reference, custom_id: req.reference, amount: { currency_code: 'EUR', value: '51.25' } });
    expect(sent.payment_source.paypal.experience_context).toMatchObject({ return_url: req.urls.returnUrl, cancel_url: req.urls.cancelUrl });
    expect(fake.last('/v1/oauth2/token')!.headers.authorization).toMatch(/^Basic /);
  });

  it('reuses its access token until it expires', async () => {
    const a = adapter();
    const before = paypal.tokensIssued;
    await a.createCheckout(keys, req);
    await a.createCheckout(keys, req);
    expect(paypal.tokensIssued - before).toBe(1);
  });

  it('captures an approved order on the server and confirms it from the capture', async () => {
    const a = adapter();
    const checkout = await a.createCheckout(keys, req);
    paypal.approve(checkout.providerRef!);
    const c = await a.capture!(keys, checkout.providerRef!);
    expect(c).toMatchObject({ reference: req.reference, outcome: 'approved', amount: '51.25', currency: 'EUR', providerRef: checkout.providerRef });
    expect(c.eventId).toMatch(/^capture:CAP/);
    // A second capture (a double click, a retry) reads the order and names the same capture: a replay credits nothing.
    const again = await a.capture!(keys, checkout.providerRef!);
    expect(again.eventId).toBe(c.eventId);
    expect(again.outcome).toBe('approved');
  });

  it('reports an order the payer has not approved as pending, and a declined capture as declined', async () => {
    const a = adapter();
    const pending = await a.createCheckout(keys, req);
    await expect(a.capture!(keys, pending.providerRef!)).resolves.toMatchObject({ outcome: 'pending', reference: req.reference });
    const declined = await a.createCheckout(keys, req);
    paypal.approve(declined.providerRef!, { decline: true });
    await expect(a.capture!(keys, declined.providerRef!)).resolves.toMatchObject({ outcome: 'declined' });
  });

  it('turns refused credentials and provider failures into ProviderError without the secret', async () => {
    const err = await adapter().createCheckout({ ...keys, key2: 'EWrongSecretWrong' }, req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).not.toContain('EWrongSecretWrong');
    await expect(adapter().capture!(keys, 'NOSUCHORDER')).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter().capture!(keys, '../../v1/evil')).rejects.toBeInstanceOf(ProviderError);
    fake.use((_r, reply) => reply.json(500, { name: 'INTERNAL_SERVER_ERROR' }));
    await expect(createPaypalAdapter({ baseUrl: fake.url }).createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
  });

  it('needs a valid mode when no base URL is configured', async () => {
    await expect(createPaypalAdapter().createCheckout({ ...keys, key3: 'production' }, req)).rejects.toThrow(/mode/);
  });

  it('accepts no webhook: payments are confirmed by the capture', async () => {
    const cb = incoming({ body: JSON.stringify({ event_type: 'PAYMENT.CAPTURE.COMPLETED' }), headers: { 'content-type': 'application/json' } });
    await expect(adapter().verifyCallback(keys, cb)).rejects.toBeInstanceOf(CallbackRejected);
    await expect(adapter().verifyCallback(keys, incoming({ query: { token: 'ABC', PayerID: 'X' } }))).rejects.toThrow(/server-side capture/);
  });
});
