import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, ledgerAndBalance, type TestApp } from '../../../test/helpers.ts';
import { paymentsKit, type PaymentsKit } from '../../../test/payments-kit.ts';
import { waitFor } from '../../../test/fakes/wait.ts';
import { deposits, ledgerEntries, paymentCallbacks } from '../../db/schema.ts';
import { FakeProvider, type Handler } from '../../integrations/payments/testing/fake-provider.ts';
import { FakeFlutterwave, FLUTTERWAVE_SECRET } from '../../integrations/payments/testing/fake-flutterwave.ts';
import { FakePaypal } from '../../integrations/payments/testing/fake-paypal.ts';
import { processStoredCallback, storeCallback, sweepStrandedCallbacks } from './callbacks.ts';

/**
 * A provider's confirmation is credited even when the provider or this server fails half-way: the callback is kept,
 * handed to the job queue and retried until it is applied, once.
 */
const PAYPAL_CLIENT = 'AcRetryClient';
const PAYPAL_SECRET = 'ERetrySecret';
const down: Handler = (_r, reply) => reply.json(503, { status: 'error', message: 'Service temporarily unavailable' });

let t: TestApp;
let flwServer: FakeProvider;
let paypalServer: FakeProvider;
const flw = new FakeFlutterwave();
const paypal = new FakePaypal(PAYPAL_CLIENT, PAYPAL_SECRET);
let kit: PaymentsKit;
let client: string;
let wallet: number;

const balance = () => kit.balance();
const depositRow = async (id: number) => (await t.ctx.db.select().from(deposits).where(eq(deposits.id, id)))[0];
const callbacksOf = (depositId: number) =>
  t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.depositId, depositId));
const deposit = async (gateway: string, amount: string) => (await kit.deposit(gateway, amount)).row;

/** Flutterwave's webhook for a paid transaction of this deposit, posted to the public callback route. */
async function flutterwavePaid(reference: string, amount: number) {
  const tx = flw.pay({ tx_ref: reference, amount, currency: 'USD', status: 'successful' });
  const hook = flw.webhook(tx);
  return {
    tx,
    post: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/flutterwave/callback',
        headers: hook.headers as Record<string, string>,
        payload: hook.rawBody,
      }),
  };
}

beforeAll(async () => {
  flwServer = await FakeProvider.start(flw.handler);
  paypalServer = await FakeProvider.start(paypal.handler);
  t = await createTestApp({
    PAYMENT_API_URLS: JSON.stringify({ flutterwave: flwServer.url, paypal: paypalServer.url }),
  });
  kit = await paymentsKit(t);
  ({ client, wallet } = kit);
  await kit.saveGateway('flutterwave', {
    key1: 'FLWPUBK_TEST-fake-X',
    key2: FLUTTERWAVE_SECRET,
    key3: 'FLWSECK_TESTfake',
    fee: '0',
    isActive: 'true',
  });
  await kit.saveGateway('paypal', {
    key1: PAYPAL_CLIENT,
    key2: PAYPAL_SECRET,
    key3: 'sandbox',
    fee: '0',
    isActive: 'true',
  });
});
beforeEach(() => {
  flwServer.use(flw.handler);
  paypalServer.use(paypal.handler);
});
afterAll(async () => {
  await t.close();
  await flwServer.close();
  await paypalServer.close();
});

describe('payment callbacks on the job queue', () => {
  it('a callback that cannot be verified while the provider is down is queued, then credited once when it is back', async () => {
    const d = await deposit('flutterwave', '75');
    const before = await balance();
    const paid = await flutterwavePaid(d.reference, 75);

    flwServer.use(down);
    const res = await paid.post();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: 'queued' });
    expect((await depositRow(d.id)).status).toBe('pending');
    expect(await balance()).toBe(before);
    const [stored] = await t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.outcome, 'queued'));
    expect(stored.error).toMatch(/Flutterwave verification failed \(503\)/);

    // The queue retries with backoff; once the provider answers, the deposit is credited.
    flwServer.use(flw.handler);
    await waitFor(
      'the queued callback to be applied',
      async () => (await depositRow(d.id)).status === 'approved',
      20_000,
    );
    expect(Number(await balance()) - Number(before)).toBeCloseTo(75, 8);

    // The provider's own retry of the same webhook credits nothing more.
    expect((await paid.post()).json().outcome).toBe('replay');
    expect(Number(await balance()) - Number(before)).toBeCloseTo(75, 8);
    const rows = await callbacksOf(d.id);
    expect(rows.map((r) => r.outcome).sort()).toEqual(['approved', 'replay']);
    const sums = await ledgerAndBalance(t, wallet);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
  });

  it('a callback a stopped server left unfinished is found by the sweep and applied', async () => {
    const d = await deposit('flutterwave', '31.50');
    const before = await balance();
    const tx = flw.pay({ tx_ref: d.reference, amount: 31.5, currency: 'USD', status: 'successful' });
    const hook = flw.webhook(tx);
    // Stored, then the server died before verifying: the row is 'received' and nobody is working on it.
    const id = await storeCallback(t.ctx, 'flutterwave', hook);
    expect(await sweepStrandedCallbacks(t.ctx)).toBe(0); // too fresh: a request may still be working on it
    await t.ctx.db
      .update(paymentCallbacks)
      .set({ receivedAt: sql`now() - interval '3 minutes'` })
      .where(eq(paymentCallbacks.id, id));
    expect(await sweepStrandedCallbacks(t.ctx)).toBe(1);
    await waitFor(
      'the swept callback to be applied',
      async () => (await depositRow(d.id)).status === 'approved',
      20_000,
    );
    expect(Number(await balance()) - Number(before)).toBeCloseTo(31.5, 8);
    expect(await sweepStrandedCallbacks(t.ctx)).toBe(0);
  });

  it('the same stored callback processed by several workers at once is applied once', async () => {
    const d = await deposit('flutterwave', '12');
    const before = await balance();
    const tx = flw.pay({ tx_ref: d.reference, amount: 12, currency: 'USD', status: 'successful' });
    const id = await storeCallback(t.ctx, 'flutterwave', flw.webhook(tx));
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => processStoredCallback(t.ctx, id)));
    // Whoever came second found the row finished and reports what it became; the money moved once.
    expect(new Set(outcomes)).toEqual(new Set(['approved']));
    expect(Number(await balance()) - Number(before)).toBeCloseTo(12, 8);
    const credits = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'deposit'), eq(ledgerEntries.refId, d.id)));
    expect(credits).toHaveLength(1);
    const [row] = await t.ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.id, id));
    expect(row).toMatchObject({ outcome: 'approved', depositId: d.id, error: null });
    expect(row.confirmation).toMatchObject({ reference: d.reference, outcome: 'approved', amount: '12' });
  });

  it('a refused callback is final: recorded as rejected, never retried, nothing credited', async () => {
    const d = await deposit('flutterwave', '9');
    const before = await balance();
    const tx = flw.pay({ tx_ref: d.reference, amount: 9, currency: 'USD', status: 'successful' });
    const id = await storeCallback(t.ctx, 'flutterwave', flw.webhook({ ...tx, id: 999_999_999 }));
    expect(await processStoredCallback(t.ctx, id)).toBe('rejected');
    expect(await processStoredCallback(t.ctx, id)).toBe('finished');
    expect((await depositRow(d.id)).status).toBe('pending');
    expect(await balance()).toBe(before);
  });

  it('PayPal: a capture PayPal cannot take now is retried by the queue; the page says the payment is waiting', async () => {
    const d = await deposit('paypal', '40');
    const orderId = d.providerRef!;
    paypal.approve(orderId);
    const before = await balance();

    paypalServer.use(down);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/paypal/capture/${orderId}`,
      headers: { cookie: client },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'pending',
      message: 'We are waiting for the payment provider to confirm your payment.',
    });
    expect(await balance()).toBe(before);

    paypalServer.use(paypal.handler);
    await waitFor(
      'the queued capture to be applied',
      async () => (await depositRow(d.id)).status === 'approved',
      20_000,
    );
    expect(Number(await balance()) - Number(before)).toBeCloseTo(40, 8);
    const rows = await callbacksOf(d.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'capture', outcome: 'approved' });
    // Back on the page: success, and a second capture credits nothing.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/payments/paypal/capture/${orderId}`,
          headers: { cookie: client },
        })
      ).json().status,
    ).toBe('success');
    expect(Number(await balance()) - Number(before)).toBeCloseTo(40, 8);
  });
});
