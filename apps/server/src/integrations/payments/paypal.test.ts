import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaypalAdapter } from './paypal.ts';
import { FakeProvider, incoming, NOW } from './testing/fake-provider.ts';
import { FakePaypal } from './testing/fake-paypal.ts';
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

describe('PayPal adapter', () => {
  let fake: FakeProvider;
  let paypal: FakePaypal;
  beforeAll(async () => {
    paypal = new FakePaypal(CLIENT, SECRET);
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
    const sent = fake.last('/v2/checkout/orders')!.json as {
      purchase_units: Array<Record<string, unknown>>;
      payment_source: { paypal: { experience_context: Record<string, string> } };
    };
    expect(sent.purchase_units[0]).toMatchObject({
      reference_id: req.reference,
      custom_id: req.reference,
      amount: { currency_code: 'EUR', value: '51.25' },
    });
    expect(sent.payment_source.paypal.experience_context).toMatchObject({
      return_url: req.urls.returnUrl,
      cancel_url: req.urls.cancelUrl,
    });
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
    expect(c).toMatchObject({
      reference: req.reference,
      outcome: 'approved',
      amount: '51.25',
      currency: 'EUR',
      providerRef: checkout.providerRef,
    });
    expect(c.eventId).toMatch(/^capture:CAP/);
    // A second capture (a double click, a retry) reads the order and names the same capture: a replay credits nothing.
    const again = await a.capture!(keys, checkout.providerRef!);
    expect(again.eventId).toBe(c.eventId);
    expect(again.outcome).toBe('approved');
  });

  it('reports an order the payer has not approved as pending, and a declined capture as declined', async () => {
    const a = adapter();
    const pending = await a.createCheckout(keys, req);
    await expect(a.capture!(keys, pending.providerRef!)).resolves.toMatchObject({
      outcome: 'pending',
      reference: req.reference,
    });
    const declined = await a.createCheckout(keys, req);
    paypal.approve(declined.providerRef!, { decline: true });
    await expect(a.capture!(keys, declined.providerRef!)).resolves.toMatchObject({ outcome: 'declined' });
  });

  it('turns refused credentials and provider failures into ProviderError without the secret', async () => {
    const err = await adapter()
      .createCheckout({ ...keys, key2: 'EWrongSecretWrong' }, req)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).not.toContain('EWrongSecretWrong');
    await expect(adapter().capture!(keys, 'NOSUCHORDER')).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter().capture!(keys, '../../v1/evil')).rejects.toBeInstanceOf(ProviderError);
    fake.use((_r, reply) => reply.json(500, { name: 'INTERNAL_SERVER_ERROR' }));
    await expect(createPaypalAdapter({ baseUrl: fake.url }).createCheckout(keys, req)).rejects.toBeInstanceOf(
      ProviderError,
    );
  });

  it('needs a valid mode when no base URL is configured', async () => {
    await expect(createPaypalAdapter().createCheckout({ ...keys, key3: 'production' }, req)).rejects.toThrow(/mode/);
  });

  it('accepts no webhook: payments are confirmed by the capture', async () => {
    const cb = incoming({
      body: JSON.stringify({ event_type: 'PAYMENT.CAPTURE.COMPLETED' }),
      headers: { 'content-type': 'application/json' },
    });
    await expect(adapter().verifyCallback(keys, cb)).rejects.toBeInstanceOf(CallbackRejected);
    await expect(adapter().verifyCallback(keys, incoming({ query: { token: 'ABC', PayerID: 'X' } }))).rejects.toThrow(
      /server-side capture/,
    );
  });
});
