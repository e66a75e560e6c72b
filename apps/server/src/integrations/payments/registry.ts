import type { AutomaticGateway } from '@platform/domain';
import { createCoinpaymentsAdapter } from './coinpayments.ts';
import { createFlutterwaveAdapter } from './flutterwave.ts';
import { createMoonpayAdapter } from './moonpay.ts';
import { createPaypalAdapter } from './paypal.ts';
import { createStripeAdapter } from './stripe.ts';
import type { AdapterOptions, PaymentAdapter } from './types.ts';

/** The adapter of a card or wallet gateway kind; null for the sandbox (the deposits service runs it itself). */
export function paymentAdapter(kind: AutomaticGateway, opts: AdapterOptions = {}): PaymentAdapter | null {
  switch (kind) {
    case 'stripe':
      return createStripeAdapter(opts);
    case 'paypal':
      return createPaypalAdapter(opts);
    case 'flutterwave':
      return createFlutterwaveAdapter(opts);
    case 'coinpayments':
      return createCoinpaymentsAdapter(opts);
    case 'moonpay':
      return createMoonpayAdapter(opts);
    default:
      return null;
  }
}
