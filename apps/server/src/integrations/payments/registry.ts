import type { AutomaticGateway } from '@platform/domain';
import { createCoinpaymentsAdapter } from './coinpayments.ts';
import { createFlutterwaveAdapter } from './flutterwave.ts';
import { createGlobianceAdapter } from './globiance.ts';
import { createMoonpayAdapter } from './moonpay.ts';
import { createPaypalAdapter } from './paypal.ts';
import { createPerfectmoneyAdapter } from './perfectmoney.ts';
import { createPrmoneyAdapter } from './prmoney.ts';
import { createStripeAdapter } from './stripe.ts';
import type { AdapterOptions, PaymentAdapter } from './types.ts';
import { createWipaysAdapter } from './wipays.ts';

const FACTORIES: Record<Exclude<AutomaticGateway, 'sandbox'>, (opts: AdapterOptions) => PaymentAdapter> = {
  stripe: createStripeAdapter,
  paypal: createPaypalAdapter,
  flutterwave: createFlutterwaveAdapter,
  coinpayments: createCoinpaymentsAdapter,
  wipays: createWipaysAdapter,
  perfectmoney: createPerfectmoneyAdapter,
  globiance: createGlobianceAdapter,
  moonpay: createMoonpayAdapter,
  prmoney: createPrmoneyAdapter,
};

/** The adapter of a card or wallet gateway kind; null for the sandbox (the deposits service runs it itself). */
export function paymentAdapter(kind: AutomaticGateway, opts: AdapterOptions = {}): PaymentAdapter | null {
  if (kind === 'sandbox') return null;
  const factory = FACTORIES[kind];
  return factory ? factory(opts) : null;
}
