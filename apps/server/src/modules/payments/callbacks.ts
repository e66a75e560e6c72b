import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { dec, isAutomaticGateway, type AutomaticGateway } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { deposits, paymentCallbacks } from '../../db/schema.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import {
  CallbackRejected,
  ProviderError,
  type IncomingCallback,
  type PaymentConfirmation,
} from '../../integrations/payments/types.ts';
import { verifySandboxCallback } from '../../integrations/payments/sandbox.ts';
import { adapterOf, keysOf, loadGateway, sandboxAllowed } from '../gateways/service.ts';
import { settleDeposit } from '../deposits/review.ts';
import { emitAll, insertStaffNotifications } from '../notifications/service.ts';
import { onWallet } from '../wallets/ledger.ts';
import { paymentCallbacksRefused } from '../../lib/metrics.ts';

/**
 * A provider's word about a payment goes through three steps, each recorded on its `payment_callbacks` row:
 * stored as it arrived, verified (signature, or a question to the provider), applied to its deposit once. A request
 * does all three when it can. When the provider cannot be reached to verify, or the database fails while applying,
 * the row is handed to the job queue (`payments.callback`), which retries with backoff on whichever instance is free;
 * a row left half-way by a crash is picked up by the sweep (`payments.sweep`). A row is applied at most once: its
 * outcome is checked under a row lock in the transaction that settles the deposit.
 */
type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind' | 'realtime' | 'risk' | 'jobs'>;

export type CallbackOutcome =
  | 'approved'
  | 'declined'
  | 'pending'
  | 'replay'
  | 'unmatched'
  | 'mismatch'
  | 'already_settled'
  | 'queued';

/** Outcomes after which nothing more happens to a row. 'received' and 'queued' rows still have work to do. */
const OPEN_OUTCOMES = ['received', 'queued'] as const;

/** A row still 'received' this long after it arrived was left by a crash (a request gives up well within this). */
const STRANDED_AFTER = '2 minutes';

type CallbackRow = typeof paymentCallbacks.$inferSelect;

const errorText = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

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

/** Asks the provider itself (PayPal's capture) what a stored capture row stands for. */
async function captureOf(ctx: Ctx, row: CallbackRow): Promise<PaymentConfirmation> {
  const orderId = (JSON.parse(row.body) as { capture?: unknown }).capture;
  const adapter = adapterOf(ctx, row.kind as AutomaticGateway);
  if (typeof orderId !== 'string' || !adapter?.capture) throw new CallbackRejected('not a capture this gateway makes');
  return adapter.capture(keysOf(await loadGateway(ctx.db, row.kind as AutomaticGateway)), orderId);
}

/** Sets a row's outcome unless it was already finished (by a racing request, job or sweep). */
async function mark(
  ctx: Ctx,
  id: number,
  outcome: CallbackOutcome | 'rejected',
  extra: { depositId?: number; error?: string | null } = {},
) {
  // A stored callback refused later (by the queue) keeps no more of itself than one refused at once.
  const stripped = outcome === 'rejected' ? { body: '', headers: {}, query: {} } : {};
  await ctx.db
    .update(paymentCallbacks)
    .set({ outcome, ...extra, ...stripped })
    .where(and(eq(paymentCallbacks.id, id), inArray(paymentCallbacks.outcome, [...OPEN_OUTCOMES])));
}

/**
 * Hands a row to the queue. The job is sent before the row is marked: if sending fails the row stays 'received' and
 * the sweep finds it; a job for a row that is finished meanwhile does nothing.
 */
export async function queueCallback(ctx: Ctx, id: number, err: unknown): Promise<'queued'> {
  await ctx.jobs.send('payments.callback', { callbackId: id });
  await mark(ctx, id, 'queued', { error: errorText(err) });
  return 'queued';
}

/** Stores what arrived before anything else, so nothing a provider sent is lost whatever happens next. */
export async function storeCallback(
  ctx: Ctx,
  kind: AutomaticGateway,
  cb: IncomingCallback,
  source: 'callback' | 'capture' = 'callback',
  confirmation: PaymentConfirmation | null = null,
): Promise<number> {
  const headers = Object.fromEntries(
    Object.entries(cb.headers).filter(([k]) => !['cookie', 'authorization'].includes(k)),
  );
  const query = Object.fromEntries(Object.entries(cb.query).filter(([, v]) => typeof v === 'string'));
  const [stored] = await ctx.db
    .insert(paymentCallbacks)
    .values({ kind, source, headers, query, body: cb.rawBody.toString('utf8'), confirmation })
    .returning({ id: paymentCallbacks.id });
  return stored.id;
}

/** What a refused callback leaves: its kind, the reason, its size and content type; never its body or headers. */
async function recordRefusal(ctx: Ctx, kind: AutomaticGateway, cb: IncomingCallback, err: unknown): Promise<void> {
  paymentCallbacksRefused.inc({ kind });
  const type = String(cb.headers['content-type'] ?? '').slice(0, 100);
  await ctx.db.insert(paymentCallbacks).values({
    kind,
    headers: {},
    query: {},
    body: '',
    outcome: 'rejected',
    error: `${errorText(err).slice(0, 300)} (${cb.rawBody.length} bytes${type ? `, ${type}` : ''})`,
  });
}

/**
 * A provider's callback (webhook, IPN) as the public route gets it. A forged or malformed one is refused at once
 * (400, credits nothing). A verified one is applied now; when the provider or the database is unavailable it is
 * queued and the provider is told it was received, because from here on retrying is this platform's job.
 */
export async function receiveCallback(
  ctx: Ctx,
  kind: AutomaticGateway,
  cb: IncomingCallback,
): Promise<CallbackOutcome> {
  // Verified before anything is stored, so a refused callback (anyone may post one) never keeps its body: it leaves
  // a bounded summary row and a count in /metrics. A server stopping mid-verification has answered nothing, so the
  // provider sends the callback again.
  let confirmation: PaymentConfirmation;
  try {
    confirmation = await verify(ctx, kind, cb);
  } catch (err) {
    if (err instanceof CallbackRejected) {
      await recordRefusal(ctx, kind, cb, err);
      throw new AppError('CALLBACK_REJECTED', `Callback rejected: ${(err as Error).message}`);
    }
    // The provider could not be asked now: the callback is kept whole for the queue to verify later.
    return queueCallback(ctx, await storeCallback(ctx, kind, cb), err);
  }
  // Stored with what it confirmed, so a crash before it is applied leaves the sweep nothing to verify again.
  const id = await storeCallback(ctx, kind, cb, 'callback', confirmation);
  return applyNow(ctx, kind, id, confirmation);
}

/** Applies a verified confirmation now, or queues it when applying fails for a reason a retry can cure. */
export async function applyNow(
  ctx: Ctx,
  kind: AutomaticGateway,
  id: number,
  c: PaymentConfirmation,
): Promise<CallbackOutcome> {
  try {
    return await applyConfirmation(ctx, kind, id, c);
  } catch (err) {
    return queueCallback(ctx, id, err);
  }
}

/**
 * Applies a verified confirmation to its deposit, once. The confirmation is saved on the row first, so a retry never
 * needs the provider (or a signature whose timestamp has since gone stale) again.
 */
export async function applyConfirmation(
  ctx: Ctx,
  kind: AutomaticGateway,
  callbackId: number,
  c: PaymentConfirmation,
): Promise<CallbackOutcome> {
  const [deposit] = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.reference, c.reference), eq(deposits.gateway, kind)))
    .limit(1);
  // The provider's event id is recorded when the event is first seen, whatever it says (a pending notice too): the
  // same event sent again, even with other unsigned fields changed, is a replay from here on.
  try {
    await ctx.db
      .update(paymentCallbacks)
      .set({ confirmation: c, eventId: c.eventId.slice(0, 200) })
      .where(eq(paymentCallbacks.id, callbackId));
  } catch (err) {
    if (!isUniqueViolation(err, 'payment_callbacks_event_unique')) throw err;
    await mark(ctx, callbackId, 'replay', { depositId: deposit?.id, error: null });
    return 'replay';
  }
  if (!deposit) {
    await mark(ctx, callbackId, 'unmatched', { error: null });
    return 'unmatched';
  }
  if (
    c.outcome === 'approved' &&
    (!dec(c.amount).eq(deposit.total) || c.currency.toUpperCase() !== deposit.currency.toUpperCase())
  ) {
    await mark(ctx, callbackId, 'mismatch', {
      depositId: deposit.id,
      error: `paid ${c.amount} ${c.currency}, expected ${deposit.total} ${deposit.currency}`,
    });
    return 'mismatch';
  }
  if (c.outcome === 'pending') {
    await mark(ctx, callbackId, 'pending', { depositId: deposit.id, error: c.note ?? null });
    // A notice that settles nothing by itself (WiPays) is for staff to check: admins and the customer's manager hear.
    if (c.note && deposit.status === 'pending')
      emitAll(
        ctx,
        await insertStaffNotifications(
          ctx.db,
          deposit.userId,
          { title: `Deposit #${deposit.id} to check`, description: c.note, url: '/admin/deposits' },
          true,
        ),
      );
    return 'pending';
  }
  try {
    const result = await onWallet(ctx, deposit.balanceId, () =>
      ctx.db.transaction(async (tx) => {
        // The row lock makes a request, a retry and the sweep that reach the same row apply it one after another;
        // whoever comes second finds it finished and does nothing.
        const [row] = await tx
          .select({ outcome: paymentCallbacks.outcome })
          .from(paymentCallbacks)
          .where(eq(paymentCallbacks.id, callbackId))
          .for('update');
        if (!row || !(OPEN_OUTCOMES as readonly string[]).includes(row.outcome))
          return { done: (row?.outcome ?? 'already_settled') as CallbackOutcome, settled: null };
        await tx
          .update(paymentCallbacks)
          .set({ eventId: c.eventId.slice(0, 200), depositId: deposit.id })
          .where(eq(paymentCallbacks.id, callbackId));
        const settled = await settleDeposit(ctx, tx, deposit, {
          outcome: c.outcome as 'approved' | 'declined',
          actorId: null,
          source: `${kind} event ${c.eventId}`,
        });
        if (c.providerRef && settled)
          await tx
            .update(deposits)
            .set({ providerRef: c.providerRef.slice(0, 128) })
            .where(eq(deposits.id, deposit.id));
        const outcome: CallbackOutcome = settled ? (c.outcome as 'approved' | 'declined') : 'already_settled';
        await tx.update(paymentCallbacks).set({ outcome, error: null }).where(eq(paymentCallbacks.id, callbackId));
        return { done: outcome, settled };
      }),
    );
    if (result.settled) emitAll(ctx, result.settled.notices);
    return result.done;
  } catch (err) {
    if (!isUniqueViolation(err, 'payment_callbacks_event_unique')) throw err;
    await mark(ctx, callbackId, 'replay', { depositId: deposit.id, error: null });
    return 'replay';
  }
}

/**
 * The `payments.callback` job: finishes one stored row. A provider still unreachable, or a database error, throws so
 * the queue retries later; a refusal is final and recorded.
 */
export async function processStoredCallback(
  ctx: Ctx,
  callbackId: number,
): Promise<CallbackOutcome | 'rejected' | 'finished'> {
  const [row] = await ctx.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.id, callbackId)).limit(1);
  if (!row || !(OPEN_OUTCOMES as readonly string[]).includes(row.outcome)) return 'finished';
  if (!isAutomaticGateway(row.kind)) {
    await mark(ctx, row.id, 'rejected', { error: 'unknown gateway kind' });
    return 'rejected';
  }
  const kind = row.kind;
  let confirmation = row.confirmation as PaymentConfirmation | null;
  if (!confirmation) {
    try {
      confirmation =
        row.source === 'capture'
          ? await captureOf(ctx, row)
          : await verify(ctx, kind, {
              headers: row.headers as Record<string, string>,
              rawBody: Buffer.from(row.body, 'utf8'),
              query: row.query as Record<string, string>,
              body: parsedBody(row),
            });
    } catch (err) {
      if (err instanceof CallbackRejected) {
        await mark(ctx, row.id, 'rejected', { error: errorText(err) });
        return 'rejected';
      }
      await ctx.db
        .update(paymentCallbacks)
        .set({ error: errorText(err) })
        .where(eq(paymentCallbacks.id, row.id));
      throw err instanceof ProviderError ? err : new Error(errorText(err));
    }
  }
  return applyConfirmation(ctx, kind, row.id, confirmation);
}

function parsedBody(row: CallbackRow): unknown {
  const type = String((row.headers as Record<string, unknown>)['content-type'] ?? '');
  try {
    return type.includes('json') ? JSON.parse(row.body) : Object.fromEntries(new URLSearchParams(row.body));
  } catch {
    return null;
  }
}

/**
 * The `payments.sweep` schedule: rows a crash left 'received' (stored, never finished) go to the queue. Their job
 * verifies them from what was stored; a signature whose timestamp has gone stale is then refused, and the provider's
 * own retry (it never got an answer) brings a fresh one.
 */
export async function sweepStrandedCallbacks(ctx: Ctx): Promise<number> {
  const stranded = await ctx.db
    .select({ id: paymentCallbacks.id })
    .from(paymentCallbacks)
    .where(
      and(
        eq(paymentCallbacks.outcome, 'received'),
        lt(paymentCallbacks.receivedAt, sql`now() - ${sql.raw(`interval '${STRANDED_AFTER}'`)}`),
      ),
    )
    .limit(1000);
  for (const { id } of stranded) await queueCallback(ctx, id, 'left unfinished by a stopped server');
  await purgeOldCallbacks(ctx);
  return stranded.length;
}

/** Days a finished callback keeps its raw body and headers; its outcome, confirmation and deposit stay for good. */
export const RAW_CALLBACK_DAYS = 90;
/** Days the summary of a refused callback (no deposit, no body) is kept before it is deleted. */
export const REFUSED_CALLBACK_DAYS = 30;
const PURGE_BATCH = 1000;

/**
 * Part of the `payments.sweep` schedule: the raw payload (body, headers, query) of finished callbacks older than
 * RAW_CALLBACK_DAYS is blanked, keeping the row with its outcome, event id, confirmation and deposit, which are the
 * settlement record. Refused callbacks that matched no deposit are noise once REFUSED_CALLBACK_DAYS have passed and
 * are deleted. Batches keep each statement short; the next run takes the rest.
 */
export async function purgeOldCallbacks(ctx: Pick<AppContext, 'db'>): Promise<{ blanked: number; deleted: number }> {
  const finished = sql`${paymentCallbacks.outcome} not in ('received', 'queued')`;
  const old = (days: number) => sql`${paymentCallbacks.receivedAt} < now() - make_interval(days => ${days})`;
  const blank = ctx.db
    .select({ id: paymentCallbacks.id })
    .from(paymentCallbacks)
    .where(
      and(
        finished,
        old(RAW_CALLBACK_DAYS),
        sql`(${paymentCallbacks.body} <> '' or ${paymentCallbacks.headers} <> '{}'::jsonb)`,
      ),
    )
    .limit(PURGE_BATCH);
  const blanked = await ctx.db
    .update(paymentCallbacks)
    .set({ body: '', headers: {}, query: {} })
    .where(inArray(paymentCallbacks.id, blank))
    .returning({ id: paymentCallbacks.id });
  const noise = ctx.db
    .select({ id: paymentCallbacks.id })
    .from(paymentCallbacks)
    .where(
      and(eq(paymentCallbacks.outcome, 'rejected'), isNull(paymentCallbacks.depositId), old(REFUSED_CALLBACK_DAYS)),
    )
    .limit(PURGE_BATCH);
  const deleted = await ctx.db
    .delete(paymentCallbacks)
    .where(inArray(paymentCallbacks.id, noise))
    .returning({ id: paymentCallbacks.id });
  return { blanked: blanked.length, deleted: deleted.length };
}
