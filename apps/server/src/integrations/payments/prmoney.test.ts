import { describe, expect, it } from 'vitest';
import { createPrmoneyAdapter } from './prmoney.ts';
import { incoming } from './testing/fake-provider.ts';
import { CallbackRejected, ProviderError, type GatewayKeys } from './types.ts';

const keys: GatewayKeys = { key1: 'client-id', key2: 'client-secret', key3: null, key4: null, key5: null };

describe('PR Money adapter', () => {
  it('cannot be switched on, starts nothing and credits nothing', async () => {
    const adapter = createPrmoneyAdapter();
    expect(adapter.usable).toBe(false);
    expect(adapter.note).toMatch(
      /^No public API documentation found for PR Money.*this gateway cannot be switched on\.$/,
    );
    await expect(
      adapter.createCheckout(keys, {
        reference: 'dep_Pr00000001',
        amount: '10.00',
        currency: 'USD',
        customer: { id: 1, email: 'a@example.com', fullName: 'A B' },
        description: 'Deposit',
        urls: {
          returnUrl: 'https://b.example/r',
          cancelUrl: 'https://b.example/c',
          callbackUrl: 'https://b.example/api/payments/prmoney/callback',
        },
      }),
    ).rejects.toBeInstanceOf(ProviderError);
    await expect(
      adapter.verifyCallback(keys, incoming({ query: { status: 'success', order_id: 'dep_Pr00000001' } })),
    ).rejects.toBeInstanceOf(CallbackRejected);
  });
});
