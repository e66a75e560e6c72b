import { createHash } from 'node:crypto';
import { Decimal } from '@platform/domain';
import { callbackFields, checkTimestamp, decimalString, requireKeys, safeEqual, trimBase } from './common.ts';
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
 * Perfect Money SCI. createCheckout returns the hidden form the browser posts to https://perfectmoney.com/api/step1.asp
 * (PAYEE_ACCOUNT = the USD wallet, key1, or the EUR wallet, key2; PAYMENT_ID = our reference; STATUS_URL = our
 * callback). Perfect Money posts the payment to STATUS_URL with V2_HASH = uppercase MD5 of
 * `PAYMENT_ID:PAYEE_ACCOUNT:PAYMENT_AMOUNT:PAYMENT_UNITS:PAYMENT_BATCH_NUM:PAYER_ACCOUNT:<uppercase MD5 of the
 * alternate passphrase>:TIMESTAMPGMT`.
 *
 * Without the account's alternate passphrase nothing Perfect Money sends can be verified, so the passphrase is a
 * third key (key3, beyond the two wallet fields): without it no checkout is started and no callback is accepted.
 */

const SCI = 'https://perfectmoney.com/api/step1.asp';
const LABELS = {
  key1: 'Perfect Money USD wallet',
  key2: 'Perfect Money EUR wallet',
  key3: 'Perfect Money alternate passphrase',
} as const;
const WALLET_KEY = { USD: 'key1', EUR: 'key2' } as const;
const md5Upper = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex').toUpperCase();

function walletFor(keys: GatewayKeys, currency: string, fail: (m: string) => Error): string {
  const key = WALLET_KEY[currency.toUpperCase() as keyof typeof WALLET_KEY];
  if (!key) throw fail(`Perfect Money takes USD or EUR, not ${currency.slice(0, 10)}`);
  return requireKeys(keys, [key], LABELS, fail)[key];
}

export function createPerfectmoneyAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const action = opts.baseUrl ? `${trimBase(opts.baseUrl)}/api/step1.asp` : SCI;
  const now = opts.now ?? Date.now;

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    // No passphrase, no way to verify the payment afterwards: better to start nothing than take unverifiable money.
    requireKeys(keys, ['key3'], LABELS, (m) => new ProviderError(`${m}: Perfect Money payments could not be verified`));
    const payee = walletFor(keys, req.currency, (m) => new ProviderError(m));
    let merchant = 'Deposit';
    try {
      merchant = new URL(req.urls.returnUrl).host;
    } catch {
      // keep the generic name
    }
    return {
      type: 'form' as const,
      action,
      providerRef: req.reference,
      fields: {
        PAYEE_ACCOUNT: payee,
        PAYEE_NAME: merchant,
        PAYMENT_ID: req.reference,
        PAYMENT_AMOUNT: new Decimal(req.amount).toFixed(2),
        PAYMENT_UNITS: req.currency.toUpperCase(),
        STATUS_URL: req.urls.callbackUrl,
        PAYMENT_URL: req.urls.returnUrl,
        PAYMENT_URL_METHOD: 'LINK',
        NOPAYMENT_URL: req.urls.cancelUrl,
        NOPAYMENT_URL_METHOD: 'LINK',
        SUGGESTED_MEMO: req.description.slice(0, 100),
        BAGGAGE_FIELDS: '',
      },
    };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const { key3 } = requireKeys(
      keys,
      ['key3'],
      LABELS,
      (m) => new CallbackRejected(`${m}: Perfect Money callbacks cannot be verified`),
    );
    const f = callbackFields(cb);
    const names = [
      'PAYMENT_ID',
      'PAYEE_ACCOUNT',
      'PAYMENT_AMOUNT',
      'PAYMENT_UNITS',
      'PAYMENT_BATCH_NUM',
      'PAYER_ACCOUNT',
      'TIMESTAMPGMT',
      'V2_HASH',
    ] as const;
    for (const n of names) if (!f[n]) throw new CallbackRejected(`missing ${n}`);
    const signed = [
      f.PAYMENT_ID,
      f.PAYEE_ACCOUNT,
      f.PAYMENT_AMOUNT,
      f.PAYMENT_UNITS,
      f.PAYMENT_BATCH_NUM,
      f.PAYER_ACCOUNT,
      md5Upper(key3),
      f.TIMESTAMPGMT,
    ].join(':');
    if (!safeEqual(f.V2_HASH.toUpperCase(), md5Upper(signed))) throw new CallbackRejected('bad signature');
    checkTimestamp(f.TIMESTAMPGMT, now());
    const payee = walletFor(keys, f.PAYMENT_UNITS, (m) => new CallbackRejected(m));
    if (f.PAYEE_ACCOUNT.trim().toUpperCase() !== payee.toUpperCase())
      throw new CallbackRejected('payment went to another wallet');
    const amount = decimalString(f.PAYMENT_AMOUNT);
    if (amount === null || !/^[A-Za-z0-9_-]{8,64}$/.test(f.PAYMENT_ID) || !/^\d{1,20}$/.test(f.PAYMENT_BATCH_NUM))
      throw new CallbackRejected('malformed payment');
    // Perfect Money calls STATUS_URL only for a completed payment.
    return {
      eventId: `batch:${f.PAYMENT_BATCH_NUM}`,
      reference: f.PAYMENT_ID,
      outcome: 'approved',
      amount,
      currency: f.PAYMENT_UNITS.toUpperCase(),
      providerRef: f.PAYMENT_BATCH_NUM,
    };
  }

  return {
    kind: 'perfectmoney',
    usable: true,
    note: "Perfect Money SCI (hidden form to step1.asp); the status callback is verified by its V2_HASH, which needs the account's alternate passphrase in key3 (not among the USD/EUR wallet fields): without it no payment is started and no callback is accepted.",
    createCheckout,
    verifyCallback,
  };
}
