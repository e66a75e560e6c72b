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
 * Flutterwave Standard (v3). createCheckout asks POST /v3/payments (Bearer secret key) for a hosted payment link with
 * tx_ref = our reference, redirect_url = our return route. A callback, whether the webhook or the browser coming back
 * with `?status&tx_ref&transaction_id`, is only a trigger: the transaction id it names is verified with
 * GET /v3/transactions/{id}/verify, and that answer (status, tx_ref, amount, currency) is the confirmation.
 */

const API = 'https://api.flutterwave.com';
const LABELS = {
  key1: 'Flutterwave public key',
  key2: 'Flutterwave secret key',
  key3: 'Flutterwave encryption key',
} as const;
const TX_ID = /^\d{1,20}$/;

/** The transaction id and reference a callback names, from the webhook body or the return address. */
function triggerOf(cb: IncomingCallback): { id?: string; txRef?: string } {
  let id = cb.query.transaction_id ?? cb.query.id;
  let txRef = cb.query.tx_ref ?? cb.query.txRef;
  const raw = cb.rawBody.toString('utf8').trim();
  if (raw.startsWith('{')) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new CallbackRejected('malformed body');
    }
    const data = field(body, 'data') ?? body;
    id ??= str(field(data, 'id'));
    txRef ??= str(field(data, 'tx_ref')) ?? str(field(data, 'txRef'));
  } else if (raw) {
    const form = new URLSearchParams(raw);
    id ??= form.get('transaction_id') ?? undefined;
    txRef ??= form.get('tx_ref') ?? undefined;
  }
  return { id, txRef };
}

export function createFlutterwaveAdapter(opts: AdapterOptions = {}): PaymentAdapter {
  const base = trimBase(opts.baseUrl ?? API);

  async function createCheckout(keys: GatewayKeys, req: CheckoutRequest) {
    const { key2 } = requireKeys(keys, ['key2'], LABELS, (m) => new ProviderError(m));
    const res = await callProvider('Flutterwave', opts, `${base}/v3/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key2}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        tx_ref: req.reference,
        amount: req.amount,
        currency: req.currency.toUpperCase(),
        redirect_url: req.urls.returnUrl,
        customer: { email: req.customer.email, name: req.customer.fullName },
        customizations: { title: req.description.slice(0, 100), description: req.description.slice(0, 200) },
        meta: { reference: req.reference },
      }),
    });
    const link = str(field(res.json, 'data', 'link'));
    if (res.status !== 200 || str(field(res.json, 'status')) !== 'success' || !link || !/^https?:\/\//.test(link)) {
      const message = str(field(res.json, 'message'));
      throw new ProviderError(
        `Flutterwave refused the payment (${res.status})${message ? `: ${scrub(message, keys)}` : ''}`,
      );
    }
    return { type: 'redirect' as const, url: link };
  }

  async function verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation> {
    const { key2 } = requireKeys(keys, ['key2'], LABELS, (m) => new CallbackRejected(m));
    const { id, txRef } = triggerOf(cb);
    if (!id || !TX_ID.test(id)) throw new CallbackRejected('no Flutterwave transaction id');
    const res = await callProvider('Flutterwave', opts, `${base}/v3/transactions/${id}/verify`, {
      method: 'GET',
      headers: { authorization: `Bearer ${key2}`, accept: 'application/json' },
    });
    if (res.status === 400 || res.status === 404)
      throw new CallbackRejected('Flutterwave does not know this transaction');
    if (res.status !== 200 || str(field(res.json, 'status')) !== 'success') {
      const message = str(field(res.json, 'message'));
      throw new ProviderError(
        `Flutterwave verification failed (${res.status})${message ? `: ${scrub(message, keys)}` : ''}`,
      );
    }
    const data = field(res.json, 'data');
    const verifiedId = str(field(data, 'id'));
    const reference = str(field(data, 'tx_ref'));
    const status = str(field(data, 'status'));
    const amount = decimalString(field(data, 'amount'));
    const currency = str(field(data, 'currency'));
    if (verifiedId !== id || !reference || !status || amount === null || !currency)
      throw new ProviderError('Flutterwave verification answer is incomplete');
    if (txRef !== undefined && txRef !== reference)
      throw new CallbackRejected('callback reference does not match the verified transaction');
    const outcome = status === 'successful' ? 'approved' : status === 'failed' ? 'declined' : 'pending';
    return {
      eventId: `${id}:${status}`,
      reference,
      outcome,
      amount,
      currency: currency.toUpperCase(),
      providerRef: id,
    };
  }

  return {
    kind: 'flutterwave',
    usable: true,
    note: 'Flutterwave Standard (v3 hosted payment link); every callback or return is verified server-side with GET /v3/transactions/{id}/verify before anything is credited.',
    createCheckout,
    verifyCallback,
  };
}
