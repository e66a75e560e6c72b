import {
  CallbackRejected,
  ProviderError,
  type AdapterOptions,
  type CheckoutRequest,
  type GatewayKeys,
  type IncomingCallback,
  type PaymentAdapter,
  type PaymentConfirmation,
} from './types.ts';

/**
 * PR Money. Its public API page describes only the OAuth2 client-credentials token step (client id and secret);
 * how a payment is created and how its result is reported and signed is not published. Without that protocol no
 * payment can be started or verified, so the gateway cannot be switched on, starts no checkout and accepts no
 * callback.
 */
const NOTE =
  "No public API documentation found for PR Money's payments and callbacks (only its OAuth token step is published); this gateway cannot be switched on.";

export function createPrmoneyAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  void opts;
  return {
    kind: 'prmoney',
    usable: false,
    note: NOTE,
    async createCheckout(_keys: GatewayKeys, _req: CheckoutRequest) {
      throw new ProviderError(NOTE);
    },
    async verifyCallback(_keys: GatewayKeys, _cb: IncomingCallback): Promise<PaymentConfirmation> {
      throw new CallbackRejected('PR Money payments cannot be verified');
    },
  };
}
