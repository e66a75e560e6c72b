import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { leads, salesStatuses } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { recordOutcome } from './call-log.ts';
import { leadScope } from './scope.ts';

/**
 * PUT /admin/leads/{id}/status: a call's outcome, i.e. the lead's sales status, set by whoever works the lead
 * (agents included: docs/spec-deviations.md). Only a configured status (400 otherwise), only a lead in the caller's
 * scope (404 otherwise: another agent's lead is not found). The change is in the lead's history (`lead.status`, who
 * and when) and on the caller's latest call of the lead. The same status again still records the call's outcome.
 */
export async function setLeadStatus(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  id: number,
  status: string,
): Promise<{ leadStatus: string; callId: number | null }> {
  return ctx.db.transaction(async (tx) => {
    const [lead] = await tx
      .select({ id: leads.id, leadStatus: leads.leadStatus, linkedUserId: leads.linkedUserId })
      .from(leads)
      .where(and(eq(leads.id, id), leadScope(actor)))
      .for('update');
    if (!lead) throw new AppError('LEAD_NOT_FOUND');
    const [known] = await tx
      .select({ status: salesStatuses.status })
      .from(salesStatuses)
      .where(eq(salesStatuses.status, status))
      .limit(1);
    if (!known) throw fieldError('status', 'Choose a status from the list.');
    const now = new Date();
    if (lead.leadStatus !== status) await tx.update(leads).set({ leadStatus: status }).where(eq(leads.id, id));
    const callId = await recordOutcome(tx, actor.id, id, status, now);
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: lead.linkedUserId,
      action: 'lead.status',
      before: { lead_status: lead.leadStatus },
      after: { lead_status: status, ...(callId !== null ? { call: callId } : {}) },
      ip: actor.ip,
      subjectType: 'lead',
      subjectId: id,
    });
    return { leadStatus: status, callId };
  });
}
