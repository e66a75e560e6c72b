import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { crmCalls } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { getSettings } from '../settings/service.ts';
import type { CallProvider } from './call-log.ts';

/**
 * The end of a call as the telephony reports it, which fills the call log's duration and disposition
 * (docs/decisions.md, "Call log"). Voiso sends it in one of two forms, both read here:
 *
 * - Call Outcome Logging (Voiso: Administration > System Settings, a URL it POSTs to after each call):
 *   {uuid, agent_extension, start_time, end_time, type, duration (seconds, with decimals), disposition (answered,
 *   failed, busy, no_answer, missed, abandoned, rejected, ...), ani, dnis, account_id (click-to-call only)}.
 * - The outbound call webhooks (Administration > Webhooks), `outbound.call.hangup` and `outbound.call.ended`:
 *   {event, secret, data: {id, type, start_time, duration: {total, ...}, ...}}.
 *
 * `uuid` / `data.id` is the call id click2call answered with (`get_call_id=true`), which the call log keeps. Neither
 * form is signed, so the address carries a token derived from the saved API key (`callEndedToken`): Trade APIs shows
 * the whole address to paste into Voiso. The built-in sandbox hands its reports straight to `recordCallEnd`.
 */
export interface CallEnd {
  callId: string;
  durationS: number;
  disposition: string | null;
}

/** A day: no call lasts longer; anything else is not a duration. */
const MAX_DURATION_S = 86_400;

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_DURATION_S ? n : null;
};
const id = (v: unknown): string | null =>
  typeof v === 'string' && /^[A-Za-z0-9-]{1,100}$/.test(v.trim()) ? v.trim() : null;
const disposition = (v: unknown): string | null => {
  const d = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return /^[a-z_]{1,30}$/.test(d) ? d : null;
};

/** The call id, whole seconds and disposition of a report in either form; null when it is neither. */
export function parseCallEnd(body: unknown): CallEnd | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if ('uuid' in b) {
    const callId = id(b.uuid);
    const duration = num(b.duration);
    if (!callId || duration === null) return null;
    return { callId, durationS: Math.round(duration), disposition: disposition(b.disposition) };
  }
  const event = typeof b.event === 'string' ? b.event : '';
  if (!/^(outbound|inbound|dialer)\.call\.(hangup|ended)$/.test(event)) return null;
  const data = (b.data && typeof b.data === 'object' ? b.data : {}) as Record<string, unknown>;
  const callId = id(data.id);
  const d = data.duration;
  const total = num(d && typeof d === 'object' ? (d as Record<string, unknown>).total : d);
  if (!callId || total === null) return null;
  return { callId, durationS: Math.round(total), disposition: disposition(data.disposition) };
}

/** The token in the call-ended address: a keyed digest of the API key, so a new key makes a new address. */
export function callEndedToken(apiKey: string): string {
  return createHmac('sha256', apiKey).update('crm_calls:call-ended').digest('hex').slice(0, 40);
}

/** The address path Voiso posts to, for the saved key; null without one. */
export async function callEndedPath(db: DbOrTx): Promise<string | null> {
  const apiKey = (await getSettings(db, ['voiso'])).voiso?.value2?.trim();
  return apiKey ? `/api/crm/voiso/call-ended/${callEndedToken(apiKey)}` : null;
}

/** Puts the duration and disposition on the call with that id; false when no call of the provider has it. */
export async function recordCallEnd(db: DbOrTx, provider: CallProvider, end: CallEnd): Promise<boolean> {
  const rows = await db
    .update(crmCalls)
    .set({ durationS: end.durationS, disposition: end.disposition ?? sql`${crmCalls.disposition}` })
    .where(and(eq(crmCalls.callId, end.callId), eq(crmCalls.provider, provider)))
    .returning({ id: crmCalls.id });
  return rows.length > 0;
}

/**
 * POST /api/crm/voiso/call-ended/{token}: Voiso's report of a call that ended. A token that is not the saved key's
 * is 404 (as if there were no such address); a body in neither form is 400; a call id the log does not know (a call
 * placed from Voiso's own softphone) is answered 200 with `matched: false`, so Voiso does not retry it.
 */
export async function receiveCallEnded(
  ctx: Pick<AppContext, 'db'>,
  token: string,
  body: unknown,
): Promise<{ matched: boolean }> {
  const apiKey = (await getSettings(ctx.db, ['voiso'])).voiso?.value2?.trim();
  const expected = apiKey ? Buffer.from(callEndedToken(apiKey)) : null;
  const given = Buffer.from(token);
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new AppError('NOT_FOUND');
  const end = parseCallEnd(body);
  if (!end) throw new AppError('VALIDATION', 'Not a call-ended report: expected uuid and duration, or a call event.');
  return { matched: await recordCallEnd(ctx.db, 'voiso', end) };
}
