import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { paymentsKit, type PaymentsKit } from '../../../test/payments-kit.ts';
import { FakeProvider, type Handler } from '../../integrations/payments/testing/fake-provider.ts';
import { FakePaypal } from '../../integrations/payments/testing/fake-paypal.ts';

/**
 * Card deposits end to end through the platform: the gateway saved by an admin, the client's deposit creating the
 * provider's checkout on a local fake of the provider, and the wallet credited only by the provider's verified word.
 */
const STRIPE_KEY = 'sk_test_platform';
const STRIPE_WEBHOOK = 'whsec_platform';
const PAYPAL_CLIENT = 'AcPlatformClient';
const PAYPAL_SECRET = 'EPlatformSecret';

const stripeApi: Handler = (r, reply) => {
  if (r.headers.authorization !== `Bearer ${STRIPE_KEY}`)
    return reply.json(401, { error: { message: 'Invalid API Key provided' } });
  const id = `cs_test_${randomBytes(6).toString('hex')}`;
  reply.json(200, {
    id,
    object: 'checkout.session',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    client_reference_id: r.form.get('client_reference_id'),
    status: 'open',
  });
};

function stripeWebhook(
  reference: string,
  amountCents: number,
  secret = STRIPE_WEBHOOK,
  id = `evt_${randomBytes(6).toString('hex')}`,
) {
  const body = JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: 'cs_test_x',
        object: 'checkout.session',
        client_reference_id: reference,
        amount_total: amountCents,
        currency: 'usd',
        payment_status: 'paid',
      },
    },
  });
  const t = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
    },
  };
}

let t: TestApp;
let stripe: FakeProvider;
let paypalFake: FakeProvider;
const paypal = new FakePaypal(PAYPAL_CLIENT, PAYPAL_SECRET);
let kit: PaymentsKit;
let client: string;
let wallet: number;
const balance = () => kit.balance();
const deposit = (gateway: string, amount: string) => kit.deposit(gateway, amount);

beforeAll(async () => {
  stripe = await FakeProvider.start(stripeApi);
  paypalFake = await FakeProvider.start(paypal.handler);
  t = await createTestApp({ PAYMENT_API_URLS: JSON.stringify({ stripe: stripe.url, paypal: paypalFake.url }) });
  kit = await paymentsKit(t);
  ({ client, wallet } = kit);
  await kit.saveGateway('stripe', { key1: STRIPE_KEY, key2: STRIPE_WEBHOOK, fee: '0', isActive: 'true' });
  await kit.saveGateway('paypal', {
    key1: PAYPAL_CLIENT,
    key2: PAYPAL_SECRET,
    key3: 'sandbox',
    fee: '0',
    isActive: 'true',
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await paypalFake.close();
});

describe('card gateways through the platform', () => {
  it('Stripe: checkout on the provider, credit only from a verified webhook, once', async () => {
    const d = await deposit('stripe', '120');
    expect(d.paymentLink).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(stripe.requests.at(-1)!.form.get('client_reference_id')).toBe(d.row.reference);
    const before = await balance();

    const forged = stripeWebhook(d.row.reference, 12000, 'whsec_wrong');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/payments/stripe/callback',
          headers: forged.headers,
          payload: forged.body,
        })
      ).statusCode,
    ).toBe(400);
    const short = stripeWebhook(d.row.reference, 100);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/payments/stripe/callback',
          headers: short.headers,
          payload: short.body,
        })
      ).json().outcome,
    ).toBe('mismatch');
    expect(await balance()).toBe(before);

    const good = stripeWebhook(d.row.reference, 12000);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/callback',
      headers: good.headers,
      payload: good.body,
    });
    expect(first.json().outcome).toBe('approved');
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/callback',
      headers: good.headers,
      payload: good.body,
    });
    expect(replay.json().outcome).toBe('replay');
    expect(Number(await balance()) - Number(before)).toBeCloseTo(120, 8);
    const back = await t.app.inject({
      method: 'GET',
      url: `/api/payments/return/${d.row.reference}`,
      headers: { cookie: client },
    });
    expect(back.json()).toMatchObject({ status: 'success', amount: '120.00' });
    const sums = await ledgerAndBalance(t, wallet);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
  });

  it('PayPal: the order is created with the deposit and captured on the server when the buyer returns', async () => {
    const d = await deposit('paypal', '50');
    expect(d.paymentLink).toMatch(/sandbox\.paypal\.com\/checkoutnow\?token=/);
    const orderId = d.row.providerRef!;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/payments/paypal/${d.row.reference}`,
          headers: { cookie: client },
        })
      ).json(),
    ).toEqual({ id: orderId });
    const before = await balance();

    // Not approved by the buyer yet: nothing is credited.
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/payments/paypal/capture/${orderId}`,
      headers: { cookie: client },
    });
    expect(early.json().status).not.toBe('success');
    expect(await balance()).toBe(before);

    paypal.approve(orderId);
    const returned = await t.app.inject({
      method: 'GET',
      url: `/api/payments/return/${d.row.reference}?token=${orderId}&PayerID=X1`,
      headers: { cookie: client },
    });
    expect(returned.json()).toMatchObject({ status: 'success', amount: '50.00' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/paypal/capture/${orderId}`,
      headers: { cookie: client },
    });
    expect(again.json().status).toBe('success');
    expect(Number(await balance()) - Number(before)).toBeCloseTo(50, 8);

    const admin2 = await signIn(t.app, DEMO.admin);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/payments/paypal/capture/${orderId}`,
          headers: { cookie: admin2 },
        })
      ).statusCode,
    ).toBe(403);
  });
});
