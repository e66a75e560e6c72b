import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { CallLogItem } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { crmCalls, leads, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { leadScope } from './scope.ts';

/**
 * The call log (docs/decisions.md, "Call log"): one row per click-to-call attempt, written beside its audit row. An
 * outcome recorded after a call lands on the caller's latest call of that lead within OUTCOME_WINDOW.
 */
export type CallProvider = 'voiso' | 'sandbox';

/** How long after a call its outcome may still be recorded on it. */
const OUTCOME_WINDOW_MS = 2 * 60 * 60 * 1000;

export async function recordCall(
  db: DbOrTx,
  call: {
    leadId: number | null;
    callerId: number;
    agent: string;
    numberTail: string | null;
    provider: CallProvider;
    callId: string | null;
    status: 'started' | 'failed';
    reason?: string | null;
  },
): Promise<void> {
  await db.insert(crmCalls).values({
    leadId: call.leadId,
    callerId: call.callerId,
    agent: call.agent.slice(0, 255),
    numberTail: call.numberTail,
    provider: call.provider,
    callId: call.callId,
    status: call.status,
    reason: call.reason?.slice(0, 300) ?? null,
  });
}

/** Puts the outcome on the caller's latest started call of the lead, if one is recent and has none yet. */
export async function recordOutcome(
  tx: DbOrTx,
  callerId: number,
  leadId: number,
  outcome: string,
  now: Date,
): Promise<number | null> {
  const latest = tx
    .select({ id: crmCalls.id })
    .from(crmCalls)
    .where(
      and(
        eq(crmCalls.leadId, leadId),
        eq(crmCalls.callerId, callerId),
        eq(crmCalls.status, 'started'),
        isNull(crmCalls.outcome),
        gt(crmCalls.startedAt, new Date(now.getTime() - OUTCOME_WINDOW_MS)),
      ),
    )
    .orderBy(desc(crmCalls.id))
    .limit(1);
  const [row] = await tx
    .update(crmCalls)
    .set({ outcome, outcomeAt: now })
    .where(sql`${crmCalls.id} = (${latest})`)
    .returning({ id: crmCalls.id });
  return row?.id ?? null;
}

/** GET /admin/leads/{id}/calls: the lead's calls, newest first (404 outside the caller's lead scope). */
export async function leadCalls(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  leadId: number,
): Promise<CallLogItem[]> {
  const [lead] = await ctx.db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), leadScope(actor)));
  if (!lead) throw new AppError('LEAD_NOT_FOUND');
  const rows = await ctx.db
    .select({ c: crmCalls, caller: users.fullName })
    .from(crmCalls)
    .leftJoin(users, eq(users.id, crmCalls.callerId))
    .where(eq(crmCalls.leadId, leadId))
    .orderBy(desc(crmCalls.id))
    .limit(100);
  return rows.map(({ c, caller }) => ({
    id: c.id,
    caller: c.callerId !== null && caller !== null ? { id: c.callerId, full_name: caller } : null,
    agent: c.agent,
    provider: c.provider as CallLogItem['provider'],
    call_id: c.callId,
    status: c.status as CallLogItem['status'],
    reason: c.reason,
    outcome: c.outcome,
    outcome_at: c.outcomeAt?.toISOString() ?? null,
    disposition: c.disposition,
    duration_s: c.durationS,
    started_at: c.startedAt.toISOString(),
  }));
}
