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
 * Globiance (GlobiancePay) checkout. Its published merchant API documents creating a checkout (requests signed with
 * the API key and secret), but its webhooks, as documented, carry no signature, and no query of a checkout's or a
 * payment's status is documented. A Globiance payment can therefore not be verified, and an unverifiable callback
 * must never credit a wallet: the gateway cannot be switched on, starts no checkout and accepts no callback.
 */
const NOTE =
  'Globiance documents no way to verify a payment (its webhooks are unsigned and no status query is published); this gateway cannot be switched on.';

export function createGlobianceAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  void opts;
  return {
    kind: 'globiance',
    usable: false,
    note: NOTE,
    async createCheckout(_keys: GatewayKeys, _req: CheckoutRequest) {
      throw new ProviderError(NOTE);
    },
    async verifyCallback(_keys: GatewayKeys, _cb: IncomingCallback): Promise<PaymentConfirmation> {
      throw new CallbackRejected('Globiance payments cannot be verified');
    },
  };
}
