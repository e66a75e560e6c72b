import { createHmac } from 'node:crypto';
import { callProvider, callbackFields, decimalString, field, requireKeys, scrub, str, trimBase } from './common.ts';
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
 * CoinPayments (API v1, https://www.coinpayments.net/api.php). Every command is a form POST with version=1, cmd,
 * key (public key) and format=json, signed in the `HMAC` header with HMAC-SHA512 of the exact form body under the
 * private key. createCheckout runs create_transaction (amount in the wallet currency, currency2 = the coin to
 * receive, invoice = our reference) and sends the browser to its checkout page.
 *
 * The IPN is not trusted: its own HMAC needs the merchant's IPN secret and merchant id, which this gateway's fields
 * do not hold. An IPN (or any callback naming a txn_id) is only a trigger; get_tx_info (full=1), signed with the API
 * keys, says what the payment is: status >= 100 or 2 is complete, < 0 failed, anything else pending.
 */

const API = 'https://www.coinpayments.net';
const LABELS = {
  key1: 'CoinPayments public key',
  key2: 'CoinPayments private key',
  key3: 'CoinPayments payment currency',
} as const;
const TXN_ID = /^[A-Za-z0-9]{8,64}$/;

export function createCoinpaymentsAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const endpoint = `${trimBase(opts.baseUrl ?? API)}/api.php`;

  /** One signed API command; the `result` of an `error: ok` answer. */
  async function command(
    keys: GatewayKeys,
    cmd: string,
    params: Record<string, string>,
    fail: (m: string) => Error,
  ): Promise<unknown> {
    const { key1, key2 } = requireKeys(keys, ['key1', 'key2'], LABELS, fail);
    const body = new URLSearchParams({ version: '1', cmd, key: key1, format: 'json', ...params }).toString();
    const hmac = createHmac('sha512', key2).update(body).digest('hex');
    const res = await callProvider('CoinPayments', opts, endpoint, {
      method: 'POST',
      headers: { hmac, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    });
    const error = str(field(res.json, 'error'));
    if (res.status !== 200 || error === undefined)
      throw new ProviderError(`CoinPayments ${cmd} failed (${res.status})`);
    if (error !== 'ok')
      throw Object.assign(new ProviderError(`CoinPayments ${cmd}: ${scrub(error, keys)}`), { providerMessage: error });
    return field(res.json, 'result');
  }

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const { key3 } = requireKeys(keys, ['key3'], LABELS, (m) => new ProviderError(m));
    const result = await command(
      keys,
      'create_transaction',
      {
        amount: req.amount,
        currency1: req.currency.toUpperCase(),
        currency2: key3.toUpperCase(),
        buyer_email: req.customer.email,
        buyer_name: req.customer.fullName,
        item_name: req.description,
        invoice: req.reference,
        custom: req.reference,
        ipn_url: req.urls.callbackUrl,
        success_url: req.urls.returnUrl,
        cancel_url: req.urls.cancelUrl,
      },
      (m) => new ProviderError(m),
    );
    const url = str(field(result, 'checkout_url')) ?? str(field(result, 'status_url'));
    const txnId = str(field(result, 'txn_id'));
    if (!url || !/^https?:\/\//.test(url) || !txnId)
      throw new ProviderError('CoinPayments answered without a checkout page');
    return { type: 'redirect' as const, url, providerRef: txnId };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const fields = callbackFields(cb);
    const txnId = fields.txn_id ?? fields.txid;
    if (!txnId || !TXN_ID.test(txnId)) throw new CallbackRejected('no CoinPayments transaction id');
    let info: unknown;
    try {
      info = await command(keys, 'get_tx_info', { txid: txnId, full: '1' }, (m) => new CallbackRejected(m));
    } catch (err) {
      const providerMessage = (err as { providerMessage?: string }).providerMessage;
      if (providerMessage && /invalid|not found|no such/i.test(providerMessage))
        throw new CallbackRejected('CoinPayments does not know this transaction');
      throw err;
    }
    const status = Number(field(info, 'status'));
    const checkout = field(info, 'checkout');
    const reference = str(field(checkout, 'invoice')) ?? str(field(checkout, 'custom'));
    const amount = decimalString(field(checkout, 'amountf'));
    const currency = str(field(checkout, 'currency'));
    if (!Number.isInteger(status) || !reference || amount === null || !currency)
      throw new ProviderError('CoinPayments transaction details are incomplete');
    if (fields.invoice !== undefined && fields.invoice !== reference)
      throw new CallbackRejected('callback reference does not match the transaction');
    const outcome = status >= 100 || status === 2 ? 'approved' : status < 0 ? 'declined' : 'pending';
    return {
      eventId: `${txnId}:${outcome}`,
      reference,
      outcome,
      amount,
      currency: currency.toUpperCase(),
      providerRef: txnId,
    };
  }

  return {
    kind: 'coinpayments',
    usable: true,
    note: 'CoinPayments API v1 (create_transaction); an IPN only triggers a get_tx_info query signed with the API keys, whose answer is what gets credited (no IPN secret is stored, so IPN contents are never trusted).',
    createCheckout,
    verifyCallback,
  };
}
