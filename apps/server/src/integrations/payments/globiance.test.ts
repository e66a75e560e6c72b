import { AUTOMATIC_GATEWAYS } from '@platform/domain';
import { describe, expect, it } from 'vitest';
import { paymentAdapter } from './registry.ts';
import { incoming } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type GatewayKeys } from './types.ts';

const keys: GatewayKeys = { key1: 'api-key', key2: 'secret', key3: null, key4: null, key5: null };
const req = {
  reference: 'dep_Gl00000001',
  amount: '10.00',
  currency: 'USD',
  customer: { id: 1, email: 'a@example.com', fullName: 'A B' },
  description: 'Deposit',
  urls: {
    returnUrl: 'https://b.example/r',
    cancelUrl: 'https://b.example/c',
    callbackUrl: 'https://b.example/api/payments/globiance/callback',
  },
};

describe('Globiance adapter', () => {
  it('cannot be switched on, starts nothing and credits nothing', async () => {
    const adapter = paymentAdapter('globiance')!;
    expect(adapter.usable).toBe(false);
    expect(adapter.note).toMatch(/cannot be switched on/);
    await expect(adapter.createCheckout(keys, req)).rejects.toBeInstanceOf(ProviderError);
    const forged = incoming({
      body: JSON.stringify({
        event: 'settled',
        type: 'payment',
        clientId: '1',
        payload: { payment: { amount: 10, status: 'confirmed' } },
      }),
      headers: { 'content-type': 'application/json' },
    });
    await expect(adapter.verifyCallback(keys, forged)).rejects.toBeInstanceOf(CallbackRejected);
  });
});

describe('payment adapter registry', () => {
  it('has an adapter for every provider kind and none for the sandbox', () => {
    expect(paymentAdapter('sandbox')).toBeNull();
    for (const kind of AUTOMATIC_GATEWAYS.filter((k) => k !== 'sandbox')) {
      const adapter = paymentAdapter(kind, { baseUrl: 'http://127.0.0.1:9' });
      expect(adapter?.kind).toBe(kind);
      expect(adapter?.note.length).toBeGreaterThan(20);
    }
    expect(AUTOMATIC_GATEWAYS.filter((k) => paymentAdapter(k)?.usable).sort()).toEqual([
      'coinpayments',
      'flutterwave',
      'moonpay',
      'paypal',
      'perfectmoney',
      'stripe',
      'wipays',
    ]);
  });
});
