import { createHmac } from 'node:crypto';
import {
  callProvider,
  checkTimestamp,
  decimalString,
  field,
  requireKeys,
  safeEqual,
  scrub,
  str,
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
 * WiPays hosted payment page (docs.wipays.com). createCheckout posts POST /payment/initiate (JSON, public_key in the
 * body, identifier = our reference, ipn_url = our callback) and sends the browser to the returned redirect_url. The
 * IPN carries identifier, status, timestamp, data{trx, amount, currency, type} and `signature` = uppercase hex
 * HMAC-SHA256 of `${identifier}${timestamp}` under the secret key; it is refused when unsigned, wrongly signed or
 * older than five minutes. WiPays signs only the identifier and timestamp: the status and amount beside them could
 * have been changed by whoever replays a captured IPN (a genuine 'pending' resent as 'success'), and WiPays documents
 * no API to ask a payment's status. So an IPN settles nothing by itself: it is recorded (its event id, identifier +
 * timestamp, is taken when first seen, so the same signed message is a replay whatever else it says) and the deposit
 * stays pending with what WiPays claims noted for staff, who approve or decline it after checking WiPays.
 */

const API = 'https://wipays.com';
const LABELS = { key1: 'WiPays public key', key2: 'WiPays secret key' } as const;
const DECLINED = new Set([
  'failed',
  'failure',
  'fail',
  'declined',
  'rejected',
  'cancelled',
  'canceled',
  'expired',
  'error',
]);

/** The IPN's fields: a JSON body, or a form body with data[...] entries. */
function ipnOf(cb: IncomingCallback): { top: Record<string, unknown>; data: Record<string, unknown> } {
  const raw = cb.rawBody.toString('utf8').trim();
  if (raw.startsWith('{')) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new CallbackRejected('malformed body');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new CallbackRejected('malformed body');
    const data = field(body, 'data');
    return {
      top: body as Record<string, unknown>,
      data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    };
  }
  const top: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const m = /^data\[([A-Za-z0-9_]+)\]$/.exec(k);
    if (m) data[m[1]] = v;
    else top[k] = v;
  }
  return { top, data };
}

export function createWipaysAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const base = trimBase(opts.baseUrl ?? API);
  const now = opts.now ?? Date.now;

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const { key1 } = requireKeys(keys, ['key1'], LABELS, (m) => new ProviderError(m));
    const [first, ...rest] = req.customer.fullName.trim().split(/\s+/);
    let site = 'Deposit';
    try {
      site = new URL(req.urls.returnUrl).host;
    } catch {
      // keep the generic name
    }
    const res = await callProvider('WiPays', opts, `${base}/payment/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        public_key: key1,
        amount: req.amount,
        cancel_url: req.urls.cancelUrl,
        currency: req.currency.toUpperCase(),
        customer: { first_name: first ?? '', last_name: rest.join(' '), email: req.customer.email, mobile: '' },
        details: req.description.slice(0, 255),
        identifier: req.reference,
        ipn_url: req.urls.callbackUrl,
        site_name: site,
        success_url: req.urls.returnUrl,
      }),
    });
    const url = str(field(res.json, 'redirect_url'));
    if (res.status !== 200 || str(field(res.json, 'status')) !== 'success' || !url || !/^https?:\/\//.test(url)) {
      const raw = field(res.json, 'message');
      const message = Array.isArray(raw) ? raw.map(String).join('; ') : str(raw);
      throw new ProviderError(
        `WiPays refused the payment (${res.status})${message ? `: ${scrub(message, keys)}` : ''}`,
      );
    }
    let providerRef: string | undefined;
    try {
      providerRef = new URL(url).searchParams.get('payment_trx') ?? undefined;
    } catch {
      providerRef = undefined;
    }
    return { type: 'redirect' as const, url, providerRef };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const { key2 } = requireKeys(keys, ['key2'], LABELS, (m) => new CallbackRejected(m));
    const { top, data } = ipnOf(cb);
    const identifier = str(top.identifier);
    const timestamp = str(top.timestamp);
    const signature = str(top.signature);
    if (!identifier || !timestamp || !signature) throw new CallbackRejected('missing signature');
    const expected = createHmac('sha256', key2).update(`${identifier}${timestamp}`).digest('hex').toUpperCase();
    if (!safeEqual(signature.toUpperCase(), expected)) throw new CallbackRejected('bad signature');
    checkTimestamp(timestamp, now());

    const status = (str(top.status) ?? '').toLowerCase();
    const type = (str(data.type) ?? 'checkout').toLowerCase();
    const amount = decimalString(data.amount);
    const currency = str(data.currency);
    if (!status || amount === null || !currency) throw new CallbackRejected('malformed payment details');
    // Neither status nor amount is signed: what the IPN claims is noted for staff and settles nothing (see above).
    // Chargeback notices settle nothing either: staff see them in the callback log.
    const claim =
      type !== 'checkout'
        ? `a ${type} notice`
        : status === 'success'
          ? 'paid'
          : DECLINED.has(status)
            ? `not paid (${status})`
            : `still ${status}`;
    return {
      eventId: `${identifier}:${timestamp}`,
      reference: identifier,
      outcome: 'pending',
      amount,
      currency: currency.toUpperCase(),
      providerRef: str(data.trx),
      note: `WiPays says ${claim}: ${amount} ${currency.toUpperCase()}. WiPays does not sign the status or amount, so check the payment in WiPays before approving or declining the deposit.`.slice(
        0,
        500,
      ),
    };
  }

  return {
    kind: 'wipays',
    usable: true,
    note: 'WiPays hosted payment page (POST /payment/initiate); IPNs are verified by their signature (HMAC-SHA256 of identifier and timestamp under the secret key, 5-minute tolerance). The signature does not cover status or amount and WiPays offers no status API, so deposits are approved by staff after checking WiPays.',
    createCheckout,
    verifyCallback,
  };
}
