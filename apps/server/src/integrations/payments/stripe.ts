import { createHmac } from 'node:crypto';
import { z } from 'zod';
import {
  callProvider,
  checkTimestamp,
  field,
  fromMinorUnits,
  header,
  jsonBody,
  parseSignedHeader,
  requireKeys,
  safeEqual,
  scrub,
  str,
  toMinorUnits,
  trimBase,
} from './common.ts';
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
 * Stripe Checkout. createCheckout opens a Checkout Session (POST /v1/checkout/sessions, form-encoded, Bearer secret
 * key) for one line of the deposit total, with client_reference_id = our reference, and sends the browser to the
 * session's hosted page. The webhook (checkout.session.* events) is verified with the endpoint's signing secret:
 * `Stripe-Signature: t=…,v1=…` is HMAC-SHA256 over `${t}.${raw body}`, refused when older than five minutes.
 */

const API = 'https://api.stripe.com';
const LABELS = { key1: 'Stripe secret key', key2: 'Stripe webhook signing secret' } as const;

/** Stripe's zero-decimal and three-decimal currencies; every other currency has two decimals. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
export const stripeDecimals = (currency: string): number => {
  const c = currency.toUpperCase();
  return ZERO_DECIMAL.has(c) ? 0 : THREE_DECIMAL.has(c) ? 3 : 2;
};

const Session = z.object({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  client_reference_id: z.string().min(1).max(64),
  payment_status: z.string(),
  amount_total: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
});
const Event = z.object({ id: z.string().min(1), type: z.string(), data: z.object({ object: z.unknown() }) });

function outcomeOf(type: string, paymentStatus: string): PaymentConfirmation['outcome'] {
  switch (type) {
    case 'checkout.session.completed':
      return paymentStatus === 'paid' ? 'approved' : 'pending';
    case 'checkout.session.async_payment_succeeded':
      return 'approved';
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return 'declined';
    default:
      throw new CallbackRejected(`unhandled Stripe event ${type.slice(0, 60)}`);
  }
}

export function createStripeAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const base = trimBase(opts.baseUrl ?? API);
  const now = opts.now ?? Date.now;

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const { key1 } = requireKeys(keys, ['key1'], LABELS, (m) => new ProviderError(m));
    const currency = req.currency.toLowerCase();
    const unitAmount = toMinorUnits(req.amount, stripeDecimals(req.currency), (m) => new ProviderError(`Stripe: ${m}`));
    const form = new URLSearchParams({
      mode: 'payment',
      client_reference_id: req.reference,
      success_url: req.urls.returnUrl,
      cancel_url: req.urls.cancelUrl,
      customer_email: req.customer.email,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': currency,
      'line_items[0][price_data][unit_amount]': unitAmount,
      'line_items[0][price_data][product_data][name]': req.description,
      'metadata[reference]': req.reference,
      'payment_intent_data[metadata][reference]': req.reference,
    });
    const res = await callProvider('Stripe', opts, `${base}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key1}`,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': `checkout-${req.reference}`,
      },
      body: form.toString(),
    });
    if (res.status < 200 || res.status >= 300) {
      const message = str(field(res.json, 'error', 'message'));
      throw new ProviderError(
        `Stripe refused the checkout (${res.status})${message ? `: ${scrub(message, keys)}` : ''}`,
      );
    }
    const url = str(field(res.json, 'url'));
    const id = str(field(res.json, 'id'));
    if (!url || !/^https?:\/\//.test(url) || !id) throw new ProviderError('Stripe answered without a checkout URL');
    return { type: 'redirect' as const, url, providerRef: id };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const { key2 } = requireKeys(keys, ['key2'], LABELS, (m) => new CallbackRejected(m));
    const parts = parseSignedHeader(header(cb, 'stripe-signature'));
    const candidates = parts.get('v1') ?? [];
    if (candidates.length === 0) throw new CallbackRejected('missing signature');
    const t = checkTimestamp(parts.get('t')?.[0], now());
    const expected = createHmac('sha256', key2).update(`${t}.`).update(cb.rawBody).digest('hex');
    // Any of the v1 signatures may match (Stripe sends one per active secret while a secret is rolled).
    let ok = false;
    for (const candidate of candidates) ok = safeEqual(candidate.toLowerCase(), expected) || ok;
    if (!ok) throw new CallbackRejected('bad signature');

    const event = Event.safeParse(jsonBody(cb));
    if (!event.success) throw new CallbackRejected('malformed event');
    const outcome = outcomeOf(event.data.type, str(field(event.data.data.object, 'payment_status')) ?? '');
    const session = Session.safeParse(event.data.data.object);
    if (!session.success) throw new CallbackRejected('malformed checkout session');
    const s = session.data;
    const amount = fromMinorUnits(s.amount_total, stripeDecimals(s.currency));
    if (amount === null) throw new CallbackRejected('malformed amount');
    return {
      eventId: event.data.id,
      reference: s.client_reference_id,
      outcome,
      amount,
      currency: s.currency.toUpperCase(),
      providerRef: s.id,
    };
  }

  return {
    kind: 'stripe',
    usable: true,
    note: 'Stripe Checkout Sessions; deposits are credited from checkout.session.* webhooks verified with the webhook signing secret (Stripe-Signature, HMAC-SHA256, 5-minute tolerance).',
    createCheckout,
    verifyCallback,
  };
}
