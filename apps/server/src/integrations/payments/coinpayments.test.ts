import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCoinpaymentsAdapter } from './coinpayments.ts';
import { FakeProvider, incoming, type Handler } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type CheckoutRequest, type GatewayKeys } from './types.ts';

const PUBLIC = 'a1b2c3d4e5f6fakepublic000000000000000000000000000000000000000000';
const PRIVATE = 'F0e1D2c3B4a5fakeprivate00000000000000000000000000000000000000000';
const keys: GatewayKeys = { key1: PUBLIC, key2: PRIVATE, key3: 'BTC', key4: null, key5: null };

const req: CheckoutRequest = {
  reference: 'dep_Cp0011aaBB',
  amount: '102.50',
  currency: 'USD',
  customer: { id: 5, email: 'sam@example.com', fullName: 'Sam Lee' },
  description: 'Deposit #5',
  urls: {
    returnUrl: 'https://broker.example/payments/return/dep_Cp0011aaBB',
    cancelUrl: 'https://broker.example/payments/return/dep_Cp0011aaBB?cancelled=1',
    callbackUrl: 'https://broker.example/api/payments/coinpayments/callback',
  },
};

interface Tx {
  id: string;
  status: number;
  invoice: string;
  currency1: string;
  amount1: string;
  currency2: string;
}

/** The CoinPayments v1 API as documented: form POST to /api.php, HMAC header = HMAC-SHA512(private key, body). */
class FakeCoinpayments {
  readonly txs = new Map<string, Tx>();

  handler: Handler = (r, reply) => {
    if (r.method !== 'POST' || r.path !== '/api.php') return reply.text(404, 'Not found');
    const f = r.form;
    if (f.get('version') !== '1' || f.get('format') !== 'json')
      return reply.json(200, { error: 'Invalid API version or format', result: [] });
    if (f.get('key') !== PUBLIC) return reply.json(200, { error: 'Invalid API public key passed', result: [] });
    const expected = createHmac('sha512', PRIVATE).update(r.rawBody).digest('hex');
    if (r.headers.hmac !== expected) return reply.json(200, { error: 'HMAC signature does not match', result: [] });
    if (f.get('cmd') === 'create_transaction') {
      for (const name of ['amount', 'currency1', 'currency2'])
        if (!f.get(name)) return reply.json(200, { error: `Missing required field: ${name}`, result: [] });
      const tx: Tx = {
        id: `CPFA${randomBytes(10).toString('hex').toUpperCase()}`,
        status: 0,
        invoice: f.get('invoice') ?? '',
        currency1: f.get('currency1')!,
        amount1: f.get('amount')!,
        currency2: f.get('currency2')!,
      };
      this.txs.set(tx.id, tx);
      return reply.json(200, {
        error: 'ok',
        result: {
          amount: '0.00163200',
          txn_id: tx.id,
          address: 'bc1qfakeaddress0000000000000000000000',
          confirms_needed: '2',
          timeout: 27000,
          checkout_url: `https://www.coinpayments.net/index.php?cmd=checkout&id=${tx.id}&key=abc`,
          status_url: `https://www.coinpayments.net/index.php?cmd=status&id=${tx.id}&key=abc`,
          qrcode_url: 'https://www.coinpayments.net/qrgen.php?id=x',
        },
      });
    }
    if (f.get('cmd') === 'get_tx_info') {
      const tx = this.txs.get(f.get('txid') ?? '');
      if (!tx) return reply.json(200, { error: 'Invalid transaction ID!', result: [] });
      return reply.json(200, {
        error: 'ok',
        result: {
          time_created: 1747045800,
          time_expires: 1747072800,
          status: tx.status,
          status_text:
            tx.status >= 100 ? 'Complete' : tx.status < 0 ? 'Cancelled / Timed Out' : 'Waiting for buyer funds...',
          type: 'coins',
          coin: tx.currency2,
          amount: 163200,
          amountf: '0.00163200',
          received: 0,
          receivedf: '0.00000000',
          recv_confirms: 0,
          payment_address: 'bc1qfakeaddress0000000000000000000000',
          checkout:
            f.get('full') === '1'
              ? {
                  currency: tx.currency1,
                  amount: 10250000000,
                  amountf: `${tx.amount1}000000`,
                  invoice: tx.invoice,
                  custom: tx.invoice,
                  item_name: 'Deposit',
                }
              : undefined,
        },
      });
    }
    reply.json(200, { error: 'Unknown command', result: [] });
  };

  /** The IPN CoinPayments posts (form body), signed with the merchant's IPN secret, which the platform does not hold. */
  ipn(tx: Tx, claims: Record<string, string> = {}) {
    const body = new URLSearchParams({
      ipn_version: '1.0',
      ipn_type: 'api',
      ipn_mode: 'hmac',
      ipn_id: randomBytes(8).toString('hex'),
      merchant: 'merchantfake',
      txn_id: tx.id,
      status: String(tx.status),
      status_text: 'x',
      currency1: tx.currency1,
      currency2: tx.currency2,
      amount1: tx.amount1,
      amount2: '0.001632',
      invoice: tx.invoice,
      custom: tx.invoice,
      ...claims,
    }).toString();
    const hmac = createHmac('sha512', 'ipn-secret-not-stored').update(body).digest('hex');
    return incoming({ body, headers: { 'content-type': 'application/x-www-form-urlencoded', hmac } });
  }
}

describe('CoinPayments adapter', () => {
  let fake: FakeProvider;
  let cp: FakeCoinpayments;
  beforeAll(async () => {
    cp = new FakeCoinpayments();
    fake = await FakeProvider.start(cp.handler);
  });
  beforeEach(() => fake.use(cp.handler));
  afterAll(() => fake.close());
  const adapter = () => createCoinpaymentsAdapter({ baseUrl: fake.url });

  async function checkoutTx(): Promise<Tx> {
    const checkout = await adapter().createCheckout(keys, req);
    return cp.txs.get(checkout.providerRef!)!;
  }

  it('creates a signed create_transaction and returns its checkout page', async () => {
    const checkout = await adapter().createCheckout(keys, req);
    expect(checkout.type).toBe('redirect');
    if (checkout.type === 'redirect') expect(checkout.url).toContain(`cmd=checkout&id=${checkout.providerRef}`);
    const sent = fake.last('/api.php')!.form;
    expect(Object.fromEntries(sent)).toMatchObject({
      cmd: 'create_transaction',
      amount: '102.50',
      currency1: 'USD',
      currency2: 'BTC',
      invoice: req.reference,
      ipn_url: req.urls.callbackUrl,
      success_url: req.urls.returnUrl,
      cancel_url: req.urls.cancelUrl,
      buyer_email: 'sam@example.com',
    });
  });

  it('confirms a completed payment from get_tx_info, not from the IPN', async () => {
    const tx = await checkoutTx();
    tx.status = 100;
    const c = await adapter().verifyCallback(keys, cp.ipn(tx));
    expect(c).toEqual({
      eventId: `${tx.id}:approved`,
      reference: req.reference,
      outcome: 'approved',
      amount: '102.5',
      currency: 'USD',
      providerRef: tx.id,
    });
    expect(fake.last('/api.php')!.form.get('cmd')).toBe('get_tx_info');
  });

  it('treats status 2 (queued for payout) as paid, negative as failed and the rest as pending', async () => {
    const tx = await checkoutTx();
    tx.status = 2;
    await expect(adapter().verifyCallback(keys, cp.ipn(tx))).resolves.toMatchObject({ outcome: 'approved' });
    tx.status = -1;
    await expect(adapter().verifyCallback(keys, cp.ipn(tx))).resolves.toMatchObject({ outcome: 'declined' });
    tx.status = 1;
    await expect(adapter().verifyCallback(keys, cp.ipn(tx))).resolves.toMatchObject({ outcome: 'pending' });
  });

  it('ignores what a forged IPN claims', async () => {
    const tx = await checkoutTx();
    const c = await adapter().verifyCallback(keys, cp.ipn(tx, { status: '100', amount1: '1000000.00' }));
    expect(c).toMatchObject({ outcome: 'pending', amount: '102.5' });
  });

  it('refuses unknown or missing transaction ids and a tampered reference', async () => {
    const tx = await checkoutTx();
    await expect(
      adapter().verifyCallback(keys, cp.ipn({ ...tx, id: 'CPFAFORGED000000000000' })),
    ).rejects.toBeInstanceOf(CallbackRejected);
    await expect(adapter().verifyCallback(keys, incoming({ query: { cancelled: '1' } }))).rejects.toBeInstanceOf(
      CallbackRejected,
    );
    await expect(adapter().verifyCallback(keys, cp.ipn(tx, { invoice: 'dep_otherDeposit' }))).rejects.toThrow(
      /reference/,
    );
  });

  it('turns API errors into ProviderError without the keys', async () => {
    const err = await adapter()
      .createCheckout({ ...keys, key2: 'wrong-private-key-0000' }, req)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/HMAC/);
    expect((err as Error).message).not.toContain('wrong-private-key-0000');
    await expect(adapter().createCheckout({ ...keys, key3: null }, req)).rejects.toBeInstanceOf(ProviderError);
    fake.use((_r, reply) => reply.text(500, 'oops'));
    await expect(adapter().createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
    await expect(
      adapter().verifyCallback(keys, incoming({ query: { txn_id: 'CPFA0000000000' } })),
    ).rejects.toBeInstanceOf(ProviderError);
  });
});
