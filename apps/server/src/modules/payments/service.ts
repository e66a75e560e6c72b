import { and, eq } from 'drizzle-orm';
import { dec, isAutomaticGateway, type PaymentResultResponse, type SandboxCheckoutResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { deposits } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { ProviderError, type PaymentConfirmation } from '../../integrations/payments/types.ts';
import { sandboxCallback } from '../../integrations/payments/sandbox.ts';
import { adapterOf, keysOf, loadGateway, sandboxAllowed } from '../gateways/service.ts';
import type { DepositRow } from '../deposits/records.ts';
import { applyNow, queueCallback, receiveCallback, storeCallback } from './callbacks.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind' | 'realtime' | 'risk' | 'jobs'>;

/** The caller's own deposit by its payment reference (another user's reference is a 404). */
async function ownByReference(ctx: Ctx, userId: number, reference: string): Promise<DepositRow> {
  const [d] = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.reference, reference), eq(deposits.userId, userId)))
    .limit(1);
  if (!d) throw new AppError('PAYMENT_NOT_FOUND');
  return d;
}

/** Where the browser lands once a payment is decided: /deposits?status&amount&message. */
export function paymentResult(d: DepositRow): PaymentResultResponse {
  const status = d.status === 'approved' ? 'success' : d.status === 'declined' ? 'failed' : 'pending';
  const message =
    status === 'success'
      ? 'Your wallet was credited.'
      : status === 'failed'
        ? (d.declineReason ?? 'The payment was declined.')
        : 'We are waiting for the payment provider to confirm your payment.';
  const q = new URLSearchParams({ status, amount: dec(d.amount).toFixed(2), message });
  return { status, amount: dec(d.amount).toFixed(2), message, redirect: `/deposits?${q.toString()}` };
}

/** GET /payments/sandbox/{tx_ref}: what the sandbox payment page shows. */
export async function sandboxCheckout(ctx: Ctx, userId: number, reference: string): Promise<SandboxCheckoutResponse> {
  const d = await ownByReference(ctx, userId, reference);
  if (d.gateway !== 'sandbox') throw new AppError('PAYMENT_NOT_FOUND');
  return {
    tx_ref: d.reference,
    amount: dec(d.total).toFixed(2),
    currency: d.currency,
    merchant: 'Sandbox Card (test payments, no real money)',
    status: d.status as SandboxCheckoutResponse['status'],
  };
}

/**
 * POST /payments/sandbox/{tx_ref}/{decision}: the sandbox provider decides and sends its signed callback, which
 * goes through the same verification and settlement as any provider's.
 */
export async function sandboxDecide(
  ctx: Ctx,
  userId: number,
  reference: string,
  decision: 'approve' | 'decline',
): Promise<PaymentResultResponse> {
  const d = await ownByReference(ctx, userId, reference);
  if (d.gateway !== 'sandbox') throw new AppError('PAYMENT_NOT_FOUND');
  if (!sandboxAllowed(ctx)) throw new AppError('GATEWAY_UNAVAILABLE');
  const gateway = await loadGateway(ctx.db, 'sandbox');
  const cb = sandboxCallback(keysOf(gateway), {
    reference,
    outcome: decision === 'approve' ? 'approved' : 'declined',
    amount: dec(d.total).toFixed(2),
    currency: d.currency,
  });
  await receiveCallback(ctx, 'sandbox', {
    headers: cb.headers,
    rawBody: Buffer.from(cb.body),
    query: {},
    body: JSON.parse(cb.body),
  });
  return paymentResult(await ownByReference(ctx, userId, reference));
}

/** POST /payments/paypal/{tx_ref}: the PayPal order of the caller's deposit (created with the deposit). */
export async function paypalOrder(ctx: Ctx, userId: number, reference: string): Promise<{ id: string }> {
  const d = await ownByReference(ctx, userId, reference);
  if (d.gateway !== 'paypal' || !d.providerRef) throw new AppError('PAYMENT_NOT_FOUND');
  return { id: d.providerRef };
}

/** POST /payments/paypal/capture/{orderID}: captures the approved order on the server and settles the deposit. */
export async function paypalCapture(ctx: Ctx, userId: number, orderId: string): Promise<PaymentResultResponse> {
  const [d] = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.providerRef, orderId), eq(deposits.userId, userId), eq(deposits.gateway, 'paypal')))
    .limit(1);
  if (!d) throw new AppError('PAYMENT_NOT_FOUND');
  if (d.status !== 'pending') return paymentResult(d);
  const adapter = adapterOf(ctx, 'paypal');
  if (!adapter?.capture) throw new AppError('GATEWAY_UNAVAILABLE');
  // Stored first like a callback: if PayPal cannot be reached now, the queue keeps trying the capture (an approved
  // order stays capturable for hours) and the page says the payment is waiting for the provider.
  const id = await storeCallback(
    ctx,
    'paypal',
    { headers: {}, rawBody: Buffer.from(JSON.stringify({ capture: orderId })), query: {}, body: null },
    'capture',
  );
  let c: PaymentConfirmation;
  try {
    c = await adapter.capture(keysOf(await loadGateway(ctx.db, 'paypal')), orderId);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    await queueCallback(ctx, id, err);
    return paymentResult(await ownByReference(ctx, userId, d.reference));
  }
  await applyNow(ctx, 'paypal', id, c);
  return paymentResult(await ownByReference(ctx, userId, d.reference));
}

/**
 * GET /payments/return/{tx_ref}: the provider sent the browser back. Some providers (Flutterwave) add the
 * transaction to the return address; it is verified with the provider like a callback. The answer is the deposit's
 * state now.
 */
export async function paymentReturn(
  ctx: Ctx,
  userId: number,
  reference: string,
  query: Record<string, string | undefined>,
): Promise<PaymentResultResponse> {
  const d = await ownByReference(ctx, userId, reference);
  const kind = d.gateway;
  // PayPal sends the buyer back with the approved order (?token=…): it is captured on the server now.
  if (kind === 'paypal' && d.status === 'pending' && query.token && query.token === d.providerRef && !query.cancelled) {
    try {
      return await paypalCapture(ctx, userId, query.token);
    } catch {
      return paymentResult(await ownByReference(ctx, userId, reference));
    }
  }
  if (
    d.status === 'pending' &&
    isAutomaticGateway(kind) &&
    kind !== 'sandbox' &&
    kind !== 'paypal' &&
    Object.keys(query).some((k) => k !== 'cancelled')
  ) {
    try {
      await receiveCallback(ctx, kind, {
        headers: {},
        rawBody: Buffer.from(new URLSearchParams(query as Record<string, string>).toString()),
        query,
        body: query,
      });
    } catch {
      // A return address proves nothing by itself; the provider's callback or a later check settles the deposit.
    }
  }
  return paymentResult(await ownByReference(ctx, userId, reference));
}
