import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMoonpayAdapter } from './moonpay.ts';
import { FakeProvider, incoming, NOW, nowSeconds, type Handler } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const PUBLISHABLE = 'pk_test_fakePublishable000';
const SECRET = 'sk_test_fakeSecret000000';
const WEBHOOK_KEY = 'wk_test_fakeWebhook00000';
const WALLET = '0xc216eD2D6c295579718dbd4a797845CdA70B3C36';
const keys: GatewayKeys = { key1: PUBLISHABLE, key2: SECRET, key3: WEBHOOK_KEY, key4: WALLET, key5: 'USDC' };

const req: CheckoutRequest = {
  reference: 'dep_Mp77zzYYxx',
  amount: '300.00',
  currency: 'USD',
  customer: { id: 12, email: 'kim+test@example.com', fullName: 'Kim Park' },
  description: 'Deposit #90',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Mp77zzYYxx',
    cancelUrl: 'https://broker.example/payments/return/dep_Mp77zzYYxx?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/moonpay/callback',
  },
};

/**
 * MoonPay's buy widget as documented: it loads only when `signature` (the last parameter) is the base64
 * HMAC-SHA256 of the query string before it, under the partner's secret key.
 */
const widget: Handler = (r, reply) => {
  const at = r.search.lastIndexOf('&signature=');
  if (at < 0) return reply.text(400, 'Missing signature');
  const expected = createHmac('sha256', SECRET).update(r.search.slice(0, at)).digest('base64');
  if (decodeURIComponent(r.search.slice(at + '&signature='.length)) !== expected)
    return reply.text(400, 'Invalid signature');
  if (r.query.get('apiKey') !== PUBLISHABLE) return reply.text(400, 'Invalid API key');
  reply.text(200, '<html>MoonPay</html>');
};

/** A webhook as MoonPay posts it, signed with the account's webhook key. */
function moonpayWebhook(type: string, data: Record<string, unknown>, opts: { key?: string; t?: number } = {}) {
  const body = JSON.stringify({
    type,
    data: {
      id: 'bda09e91-559f-4e7a-807a-cdec1a903d9d',
      status: 'completed',
      baseCurrencyAmount: 295.45,
      quoteCurrencyAmount: 295.1,
      feeAmount: 3.99,
      extraFeeAmount: 0,
      networkFeeAmount: 0.56,
      areFeesIncluded: true,
      walletAddress: WALLET,
      externalTransactionId: req.reference,
      externalCustomerId: '12',
      baseCurrency: { type: 'fiat', name: 'US Dollar', code: 'usd' },
      currency: { type: 'crypto', code: 'usdc' },
      ...data,
    },
    externalCustomerId: '12',
  });
  const t = opts.t ?? nowSeconds();
  const s = createHmac('sha256', opts.key ?? WEBHOOK_KEY)
    .update(`${t}.${body}`)
    .digest('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'moonpay-signature-v2': `t=${t},s=${s}`,
      'moonpay-signature': `t=${t},s=legacy`,
    },
  };
}

describe('MoonPay adapter', () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await FakeProvider.start(widget);
  });
  afterAll(() => fake.close());
  const adapter = () => createMoonpayAdapter({ baseUrl: fake.url, now: () => NOW });

  it('builds the buy widget URL for the deposit, signed with the secret key', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout.type).toBe('redirect');
    if (checkout.type !== 'redirect') return;
    const url = new URL(checkout.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      apiKey: PUBLISHABLE,
      currencyCode: 'usdc',
      walletAddress: WALLET,
      baseCurrencyCode: 'usd',
      baseCurrencyAmount: '300.00',
      externalTransactionId: req.reference,
      redirectURL: req.urls.returnUrl,
      email: 'kim+test@example.com',
    });
    // MoonPay's check: the signature is the last parameter and signs exactly the query string before it.
    const [unsigned, sig] = url.search.split('&signature=');
    expect(decodeURIComponent(sig)).toBe(createHmac('sha256', SECRET).update(unsigned).digest('base64'));
    expect(url.search.endsWith(`&signature=${sig}`)).toBe(true);
    const res = await fetch(checkout.url);
    expect(res.status).toBe(200);
    expect(fake.requests.at(-1)!.query.get('walletAddress')).toBe(WALLET);
    // A URL whose wallet was swapped no longer carries a valid signature: the widget refuses it.
    expect((await fetch(checkout.url.replace(WALLET, '0x0000000000000000000000000000000000000bad'))).status).toBe(400);
  });

  it('uses the sandbox widget for test keys and the live one otherwise', async () => {
    const test = await createMoonpayAdapter().createCheckout(keys, req);
    const live = await createMoonpayAdapter().createCheckout({ ...keys, key1: 'pk_live_fake' }, req);
    expect(test.type === 'redirect' && test.url.startsWith('https://buy-sandbox.moonpay.com/?apiKey=')).toBe(true);
    expect(live.type === 'redirect' && live.url.startsWith('https://buy.moonpay.com/?apiKey=')).toBe(true);
  });

  it('refuses to build a widget without its keys', async () => {
    await expect(adapter().createCheckout({ ...keys, key2: null }, req)).rejects.toBeInstanceOf(ProviderError);
    await expect(adapter().createCheckout({ ...keys, key4: ' ' }, req)).rejects.toThrow(/wallet address/);
  });

  it('confirms a signed completed transaction: what the customer spent, fees included', async () => {
    const c = await adapter().verifyCallback(keys, incoming(moonpayWebhook('transaction_updated', {})));
    expect(c).toEqual({
      eventId: 'bda09e91-559f-4e7a-807a-cdec1a903d9d:completed',
      reference: req.reference,
      outcome: 'approved',
      amount: '300',
      currency: 'USD',
      providerRef: 'bda09e91-559f-4e7a-807a-cdec1a903d9d',
    });
  });

  it('maps failed transactions to declined and the rest to pending', async () => {
    await expect(
      adapter().verifyCallback(keys, incoming(moonpayWebhook('transaction_failed', { status: 'failed' }))),
    ).resolves.toMatchObject({ outcome: 'declined' });
    await expect(
      adapter().verifyCallback(keys, incoming(moonpayWebhook('transaction_created', { status: 'waitingPayment' }))),
    ).resolves.toMatchObject({ outcome: 'pending' });
    await expect(
      adapter().verifyCallback(
        keys,
        incoming(moonpayWebhook('transaction_updated', { areFeesIncluded: false, baseCurrencyAmount: 300 })),
      ),
    ).resolves.toMatchObject({ amount: '300' });
  });

  it('refuses a bad signature, a missing one, and one from another key', async () => {
    const w = moonpayWebhook('transaction_updated', {});
    await expect(
      adapter().verifyCallback(keys, incoming({ body: w.body, headers: { 'content-type': 'application/json' } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    await expect(
      adapter().verifyCallback(keys, incoming(moonpayWebhook('transaction_updated', {}, { key: 'wk_attacker' }))),
    ).rejects.toThrow(/signature/);
    await expect(
      adapter().verifyCallback(
        keys,
        incoming({ ...w, headers: { ...w.headers, 'moonpay-signature-v2': `t=${nowSeconds()},s=${'0'.repeat(64)}` } }),
      ),
    ).rejects.toThrow(/signature/);
  });

  it('refuses a stale timestamp', async () => {
    await expect(
      adapter().verifyCallback(
        keys,
        incoming(moonpayWebhook('transaction_updated', {}, { t: nowSeconds() + 10 * 60 })),
      ),
    ).rejects.toThrow(/stale/);
    await expect(
      adapter().verifyCallback(keys, incoming(moonpayWebhook('transaction_updated', {}, { t: nowSeconds() - 301 }))),
    ).rejects.toThrow(/stale/);
  });

  it('refuses a tampered body', async () => {
    const w = moonpayWebhook('transaction_updated', { status: 'pending' });
    await expect(
      adapter().verifyCallback(
        keys,
        incoming({ ...w, body: w.body.replace('"status":"pending"', '"status":"completed"') }),
      ),
    ).rejects.toThrow(/signature/);
  });

  it('refuses a signed transaction paid to another wallet', async () => {
    await expect(
      adapter().verifyCallback(
        keys,
        incoming(
          moonpayWebhook('transaction_updated', { walletAddress: '0x0000000000000000000000000000000000000bad' }),
        ),
      ),
    ).rejects.toThrow(/wallet/);
  });
});
