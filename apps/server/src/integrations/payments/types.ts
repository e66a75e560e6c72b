import type { AutomaticGateway } from '@platform/domain';

/**
 * One adapter per card or wallet gateway kind, behind one interface. The deposits service creates a pending
 * deposit, asks the adapter for the provider's checkout, and credits the wallet only when the adapter has verified
 * the provider's confirmation (a signed callback, or a server-side capture or status query).
 */

/** The gateway record's keys as the admin saved them (back-office §3 field sets: key1..key5). */
export interface GatewayKeys {
  key1: string | null;
  key2: string | null;
  key3: string | null;
  key4: string | null;
  key5: string | null;
}

export interface CheckoutRequest {
  /** Our reference for this deposit (tx_ref): unique, 8-64 of [A-Za-z0-9_-]. Providers echo it back. */
  reference: string;
  /** What the client pays: the deposit total (amount + fee), a decimal string with 2 decimals. */
  amount: string;
  /** ISO currency of the wallet, e.g. "USD". */
  currency: string;
  customer: { id: number; email: string; fullName: string };
  description: string;
  /** Absolute URLs on this platform. */
  urls: {
    /** Where the provider sends the browser after payment: ends on /deposits?status=... via our return route. */
    returnUrl: string;
    cancelUrl: string;
    /** The public callback (webhook/IPN) route of this kind: /api/payments/{kind}/callback. */
    callbackUrl: string;
  };
}

/** What the browser does next: follow a link, or post a hidden form to the provider. */
export type Checkout =
  | { type: 'redirect'; url: string; providerRef?: string }
  | { type: 'form'; action: string; fields: Record<string, string>; providerRef?: string };

/** A callback exactly as it arrived: the raw body is what signatures are computed over. */
export interface IncomingCallback {
  headers: Record<string, string | undefined>;
  rawBody: Buffer;
  query: Record<string, string | undefined>;
  /** Parsed form or JSON body when the content type is one of those. */
  body: unknown;
}

/** A provider's verified statement about one payment. */
export interface PaymentConfirmation {
  /** The provider's unique id of this event or transaction: a replay carries the same id and credits nothing. */
  eventId: string;
  /** Our reference (tx_ref) the payment belongs to. */
  reference: string;
  outcome: 'approved' | 'declined' | 'pending';
  /** Amount and currency the provider says were paid; the service compares them with the deposit. */
  amount: string;
  currency: string;
  providerRef?: string;
  /** Why a pending confirmation settles nothing by itself (kept on the callback's row for staff). */
  note?: string;
}

/** A refused callback: bad or missing signature, stale timestamp, malformed body. Answered 400, credits nothing. */
export class CallbackRejected extends Error {}

/** A provider that could not be reached or answered an error while creating a checkout or capturing. */
export class ProviderError extends Error {}

export interface AdapterOptions {
  /** Override of the provider's API base URL (tests point it at a fake on 127.0.0.1). */
  baseUrl?: string;
  /** Clock for timestamp checks (ms since epoch). */
  now?: () => number;
  fetch?: typeof fetch;
}

export interface PaymentAdapter {
  kind: AutomaticGateway;
  /** One line for the admin card: which protocol it speaks, or why it cannot be used. */
  note: string;
  /** False when the provider's documentation could not be found: the gateway cannot be switched on. */
  usable: boolean;
  createCheckout(keys: GatewayKeys, req: CheckoutRequest): Promise<Checkout>;
  /** Verifies a callback (signature, timestamp) and returns what it confirms; throws CallbackRejected otherwise. */
  verifyCallback(keys: GatewayKeys, cb: IncomingCallback): Promise<PaymentConfirmation>;
  /** Server-side capture or status query by the provider's reference (PayPal's capture). */
  capture?(keys: GatewayKeys, providerRef: string): Promise<PaymentConfirmation>;
}
