import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFlutterwaveAdapter } from './flutterwave.ts';
import { FakeProvider, incoming } from './testing/fake-provider.ts';
import { FakeFlutterwave, FLUTTERWAVE_SECRET as SECRET } from './testing/fake-flutterwave.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const keys: GatewayKeys = {
  key1: 'FLWPUBK_TEST-fake-X',
  key2: SECRET,
  key3: 'FLWSECK_TESTfake',
  key4: null,
  key5: null,
};

const req: CheckoutRequest = {
  reference: 'dep_Fw55abcd12',
  amount: '2500.00',
  currency: 'NGN',
  customer: { id: 9, email: 'ada@example.com', fullName: 'Ada Obi' },
  description: 'Deposit #77',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Fw55abcd12',
    cancelUrl: 'https://broker.example/payments/return/dep_Fw55abcd12?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/flutterwave/callback',
  },
};

describe('Flutterwave adapter', () => {
  let fake: FakeProvider;
  let flw: FakeFlutterwave;
  beforeAll(async () => {
    flw = new FakeFlutterwave();
    fake = await FakeProvider.start(flw.handler);
  });
  beforeEach(() => fake.use(flw.handler));
  afterAll(() => fake.close());
  const adapter = () => createFlutterwaveAdapter({ baseUrl: fake.url });

  it('asks for a hosted payment link with our reference and return route', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout).toMatchObject({ type: 'redirect' });
    if (checkout.type === 'redirect')
      expect(checkout.url).toMatch(/^https:\/\/checkout\.flutterwave\.com\/v3\/hosted\/pay\//);
    const sent = fake.last('/v3/payments')!.json as Record<string, unknown>;
    expect(sent).toMatchObject({
      tx_ref: req.reference,
      amount: '2500.00',
      currency: 'NGN',
      redirect_url: req.urls.returnUrl,
      customer: { email: 'ada@example.com', name: 'Ada Obi' },
    });
  });

  it('confirms a webhook only after verifying the transaction with the API', async () => {
    const tx = flw.pay({ tx_ref: req.reference, amount: 2500, currency: 'NGN', status: 'successful' });
    const c = await adapter().verifyCallback(keys, flw.webhook(tx));
    expect(c).toEqual({
      eventId: `${tx.id}:successful`,
      reference: req.reference,
      outcome: 'approved',
      amount: '2500',
      currency: 'NGN',
      providerRef: String(tx.id),
    });
    expect(fake.last(`/v3/transactions/${tx.id}/verify`)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('verifies the browser return the same way', async () => {
    const tx = flw.pay({ tx_ref: req.reference, amount: 2500, currency: 'NGN', status: 'failed' });
    const cb = incoming({ query: { status: 'successful', tx_ref: req.reference, transaction_id: String(tx.id) } });
    // The address claims success; Flutterwave says failed, and Flutterwave is believed.
    await expect(adapter().verifyCallback(keys, cb)).resolves.toMatchObject({
      outcome: 'declined',
      reference: req.reference,
    });
  });

  it('believes the API, not the callback body, about status and amount', async () => {
    const tx = flw.pay({ tx_ref: req.reference, amount: 25, currency: 'NGN', status: 'pending' });
    const c = await adapter().verifyCallback(keys, flw.webhook(tx, { status: 'successful', amount: 2500 }));
    expect(c).toMatchObject({ outcome: 'pending', amount: '25' });
  });

  it('refuses a forged transaction id, a missing one and a tampered reference', async () => {
    await expect(
      adapter().verifyCallback(keys, incoming({ query: { transaction_id: '999999999', tx_ref: req.reference } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    await expect(
      adapter().verifyCallback(keys, incoming({ query: { status: 'cancelled', tx_ref: req.reference } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    await expect(
      adapter().verifyCallback(keys, incoming({ query: { transaction_id: '1/../../payments' } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    const tx = flw.pay({ tx_ref: 'dep_someoneElse1', amount: 2500, currency: 'NGN', status: 'successful' });
    await expect(adapter().verifyCallback(keys, flw.webhook(tx, { tx_ref: req.reference }))).rejects.toThrow(
      /reference/,
    );
    await expect(
      adapter().verifyCallback(keys, incoming({ body: '{"event":', headers: { 'content-type': 'application/json' } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
  });

  it('names the same event for a replayed callback, so it credits once', async () => {
    const tx = flw.pay({ tx_ref: req.reference, amount: 2500, currency: 'NGN', status: 'successful' });
    const a = await adapter().verifyCallback(keys, flw.webhook(tx));
    const b = await adapter().verifyCallback(
      keys,
      incoming({ query: { transaction_id: String(tx.id), tx_ref: req.reference } }),
    );
    expect(b.eventId).toBe(a.eventId);
  });

  it('turns provider errors into ProviderError without the key', async () => {
    const err = await adapter()
      .createCheckout({ ...keys, key2: 'FLWSECK_TEST-wrong-wrong' }, req)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).not.toContain('FLWSECK_TEST-wrong-wrong');
    fake.use((_r, reply) => reply.text(502, 'Bad gateway'));
    await expect(adapter().createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
    await expect(
      adapter().verifyCallback(keys, incoming({ query: { transaction_id: '4100000' } })),
    ).rejects.toBeInstanceOf(ProviderError);
  });
});
