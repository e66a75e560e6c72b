import { createHash } from 'node:crypto';
import { Decimal } from '@platform/domain';
import { callProvider, decimalString, field, requireKeys, scrub, str, trimBase } from './common.ts';
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
 * PayPal Checkout on the Orders v2 API. An OAuth2 client-credentials token (POST /v1/oauth2/token, Basic client key
 * and secret) authorises every call. createCheckout creates an order (intent CAPTURE, one purchase unit whose
 * reference_id and custom_id are our reference) and sends the browser to the order's approve link; once the payer
 * approved, capture(orderId) captures it on the server and its answer is the confirmation. PayPal webhooks are not
 * accepted: verifying them needs a webhook id this gateway's fields do not hold, and the capture makes them
 * unnecessary.
 */

const LIVE = 'https://api-m.paypal.com';
const SANDBOX = 'https://api-m.sandbox.paypal.com';
const LABELS = { key1: 'PayPal client key', key2: 'PayPal secret key', key3: 'PayPal mode' } as const;
/** PayPal's currencies without decimals. */
const NO_DECIMALS = new Set(['HUF', 'JPY', 'TWD']);
const ORDER_ID = /^[A-Za-z0-9-]{1,64}$/;

export function createPaypalAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const now = opts.now ?? Date.now;
  const tokens = new Map<string, { token: string; expires: number }>();

  function baseOf(keys: GatewayKeys): string {
    if (opts.baseUrl) return trimBase(opts.baseUrl);
    const mode = keys.key3?.trim().toLowerCase();
    if (mode === 'live') return LIVE;
    if (mode === 'sandbox') return SANDBOX;
    throw new ProviderError('PayPal mode must be sandbox or live');
  }

  async function accessToken(keys: GatewayKeys, base: string): Promise<string> {
    const { key1, key2 } = requireKeys(keys, ['key1', 'key2'], LABELS, (m) => new ProviderError(m));
    const cacheKey = createHash('sha256').update(`${base}\n${key1}\n${key2}`).digest('hex');
    const cached = tokens.get(cacheKey);
    if (cached && cached.expires > now()) return cached.token;
    const res = await callProvider('PayPal', opts, `${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${key1}:${key2}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const token = str(field(res.json, 'access_token'));
    if (res.status !== 200 || !token) {
      const why = str(field(res.json, 'error_description')) ?? str(field(res.json, 'error'));
      throw new ProviderError(`PayPal refused the credentials (${res.status})${why ? `: ${scrub(why, keys)}` : ''}`);
    }
    const ttl = Number(field(res.json, 'expires_in'));
    // Renew a minute early so a token never expires between the check and the call.
    tokens.set(cacheKey, { token, expires: now() + (Number.isFinite(ttl) && ttl > 120 ? ttl - 60 : 60) * 1000 });
    return token;
  }

  function apiError(what: string, status: number, json: unknown, keys: GatewayKeys): ProviderError {
    // A refused token (revoked, rotated credentials) is not reused: the next call asks for a new one.
    if (status === 401) tokens.clear();
    const issue =
      str(field((field(json, 'details') as unknown[] | undefined)?.[0], 'issue')) ?? str(field(json, 'name'));
    const message = str(field(json, 'message'));
    return new ProviderError(
      `PayPal ${what} failed (${status})${issue ? ` ${issue}` : ''}${message ? `: ${scrub(message, keys)}` : ''}`,
    );
  }

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const base = baseOf(keys);
    const token = await accessToken(keys, base);
    const currency = req.currency.toUpperCase();
    const amount = new Decimal(req.amount);
    const decimals = NO_DECIMALS.has(currency) ? 0 : 2;
    if (amount.decimalPlaces() > decimals)
      throw new ProviderError(`PayPal: ${currency} amounts cannot have ${amount.decimalPlaces()} decimals`);
    const body = {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: req.reference,
          custom_id: req.reference,
          invoice_id: req.reference,
          description: req.description.slice(0, 127),
          amount: { currency_code: currency, value: amount.toFixed(decimals) },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: req.urls.returnUrl,
            cancel_url: req.urls.cancelUrl,
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
          },
        },
      },
    };
    const res = await callProvider('PayPal', opts, `${base}/v2/checkout/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'paypal-request-id': `order-${req.reference}`,
        prefer: 'return=representation',
      },
      body: JSON.stringify(body),
    });
    if (res.status !== 200 && res.status !== 201) throw apiError('order', res.status, res.json, keys);
    const id = str(field(res.json, 'id'));
    const links = field(res.json, 'links');
    const approve = Array.isArray(links)
      ? links.find((l) => ['approve', 'payer-action'].includes(String(field(l, 'rel'))))
      : undefined;
    const url = str(field(approve, 'href'));
    if (!id || !ORDER_ID.test(id) || !url || !/^https?:\/\//.test(url))
      throw new ProviderError('PayPal answered without an order to approve');
    return { type: 'redirect' as const, url, providerRef: id };
  }

  /** What an order (or a capture's answer, which has the same shape) says about the payment. */
  function confirmationOf(order: unknown, orderId: string): PaymentConfirmation {
    const unit = (field(order, 'purchase_units') as unknown[] | undefined)?.[0];
    const capture = (field(unit, 'payments', 'captures') as unknown[] | undefined)?.[0];
    const reference =
      str(field(unit, 'reference_id')) ?? str(field(unit, 'custom_id')) ?? str(field(capture, 'custom_id'));
    if (!reference || reference === 'default') throw new ProviderError('PayPal order carries no payment reference');
    if (capture) {
      const captureId = str(field(capture, 'id'));
      const amount = decimalString(field(capture, 'amount', 'value'));
      const currency = str(field(capture, 'amount', 'currency_code'));
      if (!captureId || amount === null || !currency) throw new ProviderError('PayPal capture is incomplete');
      const status = str(field(capture, 'status'));
      const outcome = status === 'COMPLETED' ? 'approved' : status === 'PENDING' ? 'pending' : 'declined';
      return {
        eventId: `capture:${captureId}`,
        reference,
        outcome,
        amount,
        currency: currency.toUpperCase(),
        providerRef: orderId,
      };
    }
    const status = str(field(order, 'status')) ?? 'UNKNOWN';
    const amount = decimalString(field(unit, 'amount', 'value'));
    const currency = str(field(unit, 'amount', 'currency_code'));
    if (amount === null || !currency) throw new ProviderError('PayPal order is incomplete');
    return {
      eventId: `order:${orderId}:${status}`,
      reference,
      outcome: status === 'VOIDED' ? 'declined' : 'pending',
      amount,
      currency: currency.toUpperCase(),
      providerRef: orderId,
    };
  }

  async function capture(keys: GatewayKeys, orderId: string): Promise<PaymentConfirmation> {
    if (!ORDER_ID.test(orderId)) throw new ProviderError('invalid PayPal order id');
    const base = baseOf(keys);
    const token = await accessToken(keys, base);
    const res = await callProvider(
      'PayPal',
      opts,
      `${base}/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'paypal-request-id': `capture-${orderId}`,
          prefer: 'return=representation',
        },
        body: '{}',
      },
    );
    if (res.status === 200 || res.status === 201) return confirmationOf(res.json, orderId);
    if (res.status !== 422) throw apiError('capture', res.status, res.json, keys);
    // Not capturable now (not approved yet, already captured, voided): the order itself says where it stands.
    const order = await callProvider('PayPal', opts, `${base}/v2/checkout/orders/${encodeURIComponent(orderId)}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    if (order.status !== 200) throw apiError('order lookup', order.status, order.json, keys);
    return confirmationOf(order.json, orderId);
  }

  async function verifyCallback(_keys: GatewayKeys, _cb: IncomingCallback): Promise<PaymentConfirmation> {
    throw new CallbackRejected('PayPal payments are confirmed by server-side capture');
  }

  return {
    kind: 'paypal',
    usable: true,
    note: 'PayPal Orders v2: the payer approves the order on PayPal and the platform captures it server-side; the capture answer is the confirmation. PayPal webhooks are not accepted (their verification needs a webhook id this gateway does not hold).',
    createCheckout,
    verifyCallback,
    capture,
  };
}
