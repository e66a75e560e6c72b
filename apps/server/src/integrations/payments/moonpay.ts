import { createHmac } from 'node:crypto';
import { Decimal } from '@platform/domain';
import {
  checkTimestamp,
  decimalString,
  field,
  header,
  jsonBody,
  parseSignedHeader,
  requireKeys,
  safeEqual,
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
 * MoonPay on-ramp (buy widget). createCheckout builds the widget URL (apiKey = publishable key, currencyCode = the
 * crypto received, walletAddress = the platform's wallet, baseCurrencyCode/baseCurrencyAmount = the deposit,
 * externalTransactionId = our reference, redirectURL = our return route) and signs it as MoonPay requires for a
 * prefilled wallet address: `signature` = base64 HMAC-SHA256 of the query string under the secret key. The
 * transaction webhooks are verified with the webhook key: `Moonpay-Signature-V2: t=…,s=…` is HMAC-SHA256 over
 * `${t}.${raw body}`, refused when older than five minutes.
 */

const LIVE = 'https://buy.moonpay.com';
const SANDBOX = 'https://buy-sandbox.moonpay.com';
const LABELS = {
  key1: 'MoonPay publishable key',
  key2: 'MoonPay secret key',
  key3: 'MoonPay webhook key',
  key4: 'wallet address',
  key5: 'crypto currency',
} as const;

/** MoonPay's query encoding: each value percent-encoded, in the order given. */
const queryString = (params: Array<[string, string]>): string =>
  `?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;

export function createMoonpayAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const now = opts.now ?? Date.now;

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const { key1, key2, key4, key5 } = requireKeys(
      keys,
      ['key1', 'key2', 'key4', 'key5'],
      LABELS,
      (m) => new ProviderError(m),
    );
    const base = trimBase(opts.baseUrl ?? (key1.startsWith('pk_test_') ? SANDBOX : LIVE));
    const search = queryString([
      ['apiKey', key1],
      ['currencyCode', key5.toLowerCase()],
      ['walletAddress', key4],
      ['baseCurrencyCode', req.currency.toLowerCase()],
      ['baseCurrencyAmount', req.amount],
      ['externalTransactionId', req.reference],
      ['externalCustomerId', String(req.customer.id)],
      ['email', req.customer.email],
      ['redirectURL', req.urls.returnUrl],
    ]);
    const signature = createHmac('sha256', key2).update(search).digest('base64');
    return { type: 'redirect' as const, url: `${base}/${search}&signature=${encodeURIComponent(signature)}` };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const { key3 } = requireKeys(keys, ['key3'], LABELS, (m) => new CallbackRejected(m));
    const parts = parseSignedHeader(header(cb, 'moonpay-signature-v2'));
    const given = parts.get('s')?.[0];
    if (!given) throw new CallbackRejected('missing signature');
    const t = checkTimestamp(parts.get('t')?.[0], now());
    const expected = createHmac('sha256', key3).update(`${t}.`).update(cb.rawBody).digest('hex');
    if (!safeEqual(given.toLowerCase(), expected)) throw new CallbackRejected('bad signature');

    const event = jsonBody(cb);
    const type = str(field(event, 'type')) ?? '';
    if (!/^transaction_(created|updated|failed)$/.test(type))
      throw new CallbackRejected(`unhandled MoonPay event ${type.slice(0, 60)}`);
    const tx = field(event, 'data');
    const id = str(field(tx, 'id'));
    const status = str(field(tx, 'status'));
    const reference = str(field(tx, 'externalTransactionId'));
    const currency = str(field(tx, 'baseCurrency', 'code')) ?? str(field(tx, 'baseCurrencyCode'));
    const base = decimalString(field(tx, 'baseCurrencyAmount'));
    if (!id || !status || !reference || !currency || base === null) throw new CallbackRejected('malformed transaction');
    const wallet = str(field(tx, 'walletAddress'));
    if (wallet && keys.key4 && wallet.toLowerCase() !== keys.key4.trim().toLowerCase())
      throw new CallbackRejected('payment went to another wallet');
    // With fees included (MoonPay's default) the customer spent base + fees: the amount the widget was opened with.
    let spent = new Decimal(base);
    if (field(tx, 'areFeesIncluded') === true) {
      for (const fee of ['feeAmount', 'extraFeeAmount', 'networkFeeAmount']) {
        const raw = field(tx, fee);
        if (raw === null || raw === undefined) continue;
        const v = decimalString(raw);
        if (v === null) throw new CallbackRejected('malformed fee');
        spent = spent.plus(v);
      }
    }
    const outcome =
      type === 'transaction_failed' || status === 'failed'
        ? 'declined'
        : status === 'completed'
          ? 'approved'
          : 'pending';
    return {
      eventId: `${id}:${status}`,
      reference,
      outcome,
      amount: spent.toFixed(),
      currency: currency.toUpperCase(),
      providerRef: id,
    };
  }

  return {
    kind: 'moonpay',
    usable: true,
    note: 'MoonPay buy widget (URL signed with the secret key, crypto sent to the configured wallet); deposits are credited from transaction webhooks verified with the webhook key (Moonpay-Signature-V2, HMAC-SHA256, 5-minute tolerance).',
    createCheckout,
    verifyCallback,
  };
}
