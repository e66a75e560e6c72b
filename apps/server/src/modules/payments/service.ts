import { and, eq } from 'drizzle-orm';
import { dec, isAutomaticGateway, type AutomaticGateway, type PaymentResultResponse, type SandboxCheckoutResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { deposits, paymentCallbacks } from '../../db/schema.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { CallbackRejected, ProviderError, type IncomingCallback, type PaymentConfirmation } from '../../integrations/payments/types.ts';
import { sandboxCallback, verifySandboxCallback } from '../../integrations/payments/sandbox.ts';
import { adapterOf, keysOf, loadGateway, sandboxAllowed } from '../gateways/service.ts';
import { settleDeposit } from '../deposits/review.ts';
import { emitAll } from '../notifications/service.ts';
import { onWallet } from '../wallets/ledger.ts';
import type { DepositRow } from '../deposits/records.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind' | 'realtime' | 'risk'>;

export type CallbackOutcome = 'approved' | 'declined' | 'pending' | 'replay' | 'unmatched' | 'mismatch' | 'already_settled';

async function verify(ctx: Ctx, kind: AutomaticGateway, cb: IncomingCallback): Promise<PaymentConfirmation> {
  const gateway = await loadGateway(ctx.db, kind);
  if (kind === 'sandbox') {
    if (!sandboxAllowed(ctx)) throw new CallbackRejected('sandbox gateway is switched off');
    return verifySandboxCallback(keysOf(gateway), cb);
  }
  const adapter = adapterOf(ctx, kind);
  if (!adapter?.usable) throw new CallbackRejected(`${kind} callbacks are not accepted`);
  return adapter.verifyCallback(keysOf(gateway), cb);
}

/**
 * A provider's callback (webhook, IPN): stored raw first, then verified; only a verified confirmation of the exact
 * amount and currency of a pending deposit of this gateway moves it. The provider's event id is recorded in the
 * transaction that settles the deposit, so a replay (same event id) credits nothing, and a crash before the commit
 * leaves the provider's retry to do the work.
 */
export async function receiveCallback(ctx: Ctx, kind: AutomaticGateway, cb: IncomingCallback): Promise<CallbackOutcome> {
  const headers = Object.fromEntries(Object.entries(cb.headers).filter(([k]) => !['cookie', 'authorization'].includes(k)));
  const [stored] = await ctx.db
    .insert(paymentCallbacks)
    .values({ kind, headers, body: cb.rawBody.toString('utf8').slice(0, 100_000) })
    .returning({ id: paymentCallbacks.id });
  let confirmation: PaymentConfirmation;
  try {
    confirmation = await verify(ctx, kind, cb);
  } catch (err) {
    const rejected = err instanceof CallbackRejected || err instanceof ProviderError;
    await ctx.db.update(paymentCallbacks).set({ outcome: 'rejected', error: String((err as Error).message).slice(0, 500) }).where(eq(paymentCallbacks.id, stored.id));
    if (rejected) throw new AppError('CALLBACK_REJECTED', `Callback rejected: ${(err as Error).message}`);
    throw err;
  }
  return applyConfirmation(ctx, kind, stored.id, confirmation);
}

/** Applies a verified confirmation (from a callback or a server-side capture) to its deposit, once. */
export async function applyConfirmation(ctx: Ctx, kind: AutomaticGateway, callbackId: number, c: PaymentConfirmation): Promise<CallbackOutcome> {
  const mark = (outcome: CallbackOutcome, extra: { depositId?: number; error?: string } = {}) =>
    ctx.db.update(paymentCallbacks).set({ outcome, ...extra }).where(eq(paymentCallbacks.id, callbackId));
  const [deposit] = await ctx.db.select().from(deposits).where(and(eq(deposits.reference, c.reference), eq(deposits.gateway, kind))).limit(1);
  if (!deposit) {
    await mark('unmatched');
    return 'unmatched';
  }
  if (c.outcome === 'approved' && (!dec(c.amount).eq(deposit.total) || c.currency.toUpperCase() !== deposit.currency.toUpperCase())) {
    await mark('mismatch', { depositId: deposit.id, error: `paid ${c.amount} ${c.currency}, expected ${deposit.total} ${deposit.currency}` });
    return 'mismatch';
  }
  if (c.outcome === 'pending') {
    await mark('pending', { depositId: deposit.id });
    return 'pending';
  }
  try {
    const result = await onWallet(ctx, deposit.balanceId, () =>
      ctx.db.transaction(async (tx) => {
        await tx.update(paymentCallbacks).set({ eventId: c.eventId.slice(0, 200), depositId: deposit.id }).where(eq(paymentCallbacks.id, callbackId));
        const settled = await settleDeposit(ctx, tx, deposit, { outcome: c.outcome as 'approved' | 'declined', actorId: null, source: `${kind} event ${c.eventId}` });
        if (c.providerRef && settled) await tx.update(deposits).set({ providerRef: c.providerRef.slice(0, 128) }).where(eq(deposits.id, deposit.id));
        await tx.update(paymentCallbacks).set({ outcome: settled ? c.outcome : 'already_settled' }).where(eq(paymentCallbacks.id, callbackId));
        return { settled, walletBalance: settled?.walletBalance ?? null };
      }),
    );
    if (!result.settled) return 'already_settled';
    emitAll(ctx, result.settled.notices);
    return c.outcome as 'approved' | 'declined';
  } catch (err) {
    if (!isUniqueViolation(err, 'payment_callbacks_event_unique')) throw err;
    await mark('replay', { depositId: deposit.id });
    return 'replay';
  }
}

/** The caller's own deposit by its payment reference (another user's reference is a 404). */
async function ownByReference(ctx: Ctx, userId: number, reference: string): Promise<DepositRow> {
  const [d] = await ctx.db.select().from(deposits).where(and(eq(deposits.reference, reference), eq(deposits.userId, userId))).limit(1);
  if (!d) throw new AppError('PAYMENT_NOT_FOUND');
  return d;
}

/** Where the browser lands once a payment is decided: /deposits?status&amount&message. */
export function paymentResult(d: DepositRow): PaymentResultResponse {
  const status = d.status === 'approved' ? 'success' : d.status === 'declined' ? 'failed' : 'pending';
  const message = status === 'success' ? 'Your wallet was credited.' : status === 'failed' ? (d.declineReason ?? 'The payment was declined.') : 'We are waiting for the payment provider to confirm your payment.';
  const q = new URLSearchParams({ status, amount: dec(d.amount).toFixed(2), message });
  return { status, amount: dec(d.amount).toFixed(2), message, redirect: `/deposits?${q.toString()}` };
}

/** GET /payments/sandbox/{tx_ref}: what the sandbox payment page shows. */
export async function sandboxCheckout(ctx: Ctx, userId: number, reference: string): Promise<SandboxCheckoutResponse> {
  const d = await ownByReference(ctx, userId, reference);
  if (d.gateway !== 'sandbox') throw new AppError('PAYMENT_NOT_FOUND');
  return { tx_ref: d.reference, amount: dec(d.total).toFixed(2), currency: d.currency, merchant: 'Sandbox Card (test payments, no real money)', status: d.status as SandboxCheckoutResponse['status'] };
}

/**
 * POST /payments/sandbox/{tx_ref}/{decision}: the sandbox provider decides and sends its signed callback, which
 * goes through the same verification and settlement as any provider's.
 */
export async function sandboxDecide(ctx: Ctx, userId: number, reference: string, decision: 'approve' | 'decline'): Promise<PaymentResultResponse> {
  const d = await ownByReference(ctx, userId, reference);
  if (d.gateway !== 'sandbox') throw new AppError('PAYMENT_NOT_FOUND');
  if (!sandboxAllowed(ctx)) throw new AppError('GATEWAY_UNAVAILABLE');
  const gateway = await loadGateway(ctx.db, 'sandbox');
  const cb = sandboxCallback(keysOf(gateway), { reference, outcome: decision === 'approve' ? 'approved' : 'declined', amount: dec(d.total).toFixed(2), currency: d.currency });
  await receiveCallback(ctx, 'sandbox', { headers: cb.headers, rawBody: Buffer.from(cb.body), query: {}, body: JSON.parse(cb.body) });
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
  const [d] = await ctx.db.select().from(deposits).where(and(eq(deposits.providerRef, orderId), eq(deposits.userId, userId), eq(deposits.gateway, 'paypal'))).limit(1);
  if (!d) throw new AppError('PAYMENT_NOT_FOUND');
  if (d.status !== 'pending') return paymentResult(d);
  const adapter = adapterOf(ctx, 'paypal');
  if (!adapter?.capture) throw new AppError('GATEWAY_UNAVAILABLE');
  const gateway = await loadGateway(ctx.db, 'paypal');
  const [stored] = await ctx.db.insert(paymentCallbacks).values({ kind: 'paypal', headers: {}, body: JSON.stringify({ capture: orderId }) }).returning({ id: paymentCallbacks.id });
  let c: PaymentConfirmation;
  try {
    c = await adapter.capture(keysOf(gateway), orderId);
  } catch (err) {
    await ctx.db.update(paymentCallbacks).set({ outcome: 'rejected', error: String((err as Error).message).slice(0, 500) }).where(eq(paymentCallbacks.id, stored.id));
    if (err instanceof ProviderError || err instanceof CallbackRejected) throw new AppError('PROVIDER_UNAVAILABLE');
    throw err;
  }
  await applyConfirmation(ctx, 'paypal', stored.id, c);
  return paymentResult(await ownByReference(ctx, userId, d.reference));
}

/**
 * GET /payments/return/{tx_ref}: the provider sent the browser back. Some providers (Flutterwave) add the
 * transaction to the return address; it is verified with the provider like a callback. The answer is the deposit's
 * state now.
 */
export async function paymentReturn(ctx: Ctx, userId: number, reference: string, query: Record<string, string | undefined>): Promise<PaymentResultResponse> {
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
  if (d.status === 'pending' && isAutomaticGateway(kind) && kind !== 'sandbox' && kind !== 'paypal' && Object.keys(query).some((k) => k !== 'cancelled')) {
    try {
      await receiveCallback(ctx, kind, { headers: {}, rawBody: Buffer.from(new URLSearchParams(query as Record<string, string>).toString()), query, body: query });
    } catch {
      // A return address proves nothing by itself; the provider's callback or a later check settles the deposit.
    }
  }
  return paymentResult(await ownByReference(ctx, userId, reference));
}
