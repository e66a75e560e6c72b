import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { intakeName, type LeadIntakeRequest } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { leads } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { snapshot } from '../crm/service.ts';
import { defaultSalesStatus } from '../crm/statuses.ts';
import type { IntakeSource } from './keys.ts';

type IntakeInput = z.output<typeof LeadIntakeRequest>;

/** Class of the advisory locks that serialise intakes of one email per owner (the second key is a hash of both). */
const INTAKE_LOCK_CLASS = 7301;

/** The leads an owner already has: an affiliate's own leads, or the site's live leads with no affiliate. */
const ownerCondition = (source: IntakeSource) =>
  source.kind === 'affiliate'
    ? eq(leads.userId, source.affiliateId)
    : and(isNull(leads.userId), eq(leads.source, 'live'));

/**
 * POST /affiliate/leads/intake: one lead from an affiliate's key (owned by the affiliate, in Affiliate Leads, exactly
 * like one the affiliate adds on screen) or from the site's leads webhook key (a live lead with no affiliate). A lead
 * with the same email the owner already has (not deleted) is answered with its id and nothing changes, so a retried
 * or repeated post never makes a second lead. Posts of one email by one owner run one at a time (a transaction-scoped
 * advisory lock on owner and email), so concurrent identical posts cannot both insert, on any number of instances.
 */
export async function intakeLead(
  db: DbOrTx,
  source: IntakeSource,
  input: IntakeInput,
  ip: string,
): Promise<{ id: number; created: boolean }> {
  const email = input.email.toLowerCase();
  const owner = source.kind === 'affiliate' ? `affiliate:${source.affiliateId}` : 'site';
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${INTAKE_LOCK_CLASS}, hashtext(${`${owner}:${email}`}))`);
    const [existing] = await tx
      .select({ id: leads.id })
      .from(leads)
      .where(and(sql`lower(${leads.email}) = ${email}`, ownerCondition(source), isNull(leads.deletedAt)))
      .orderBy(desc(leads.id))
      .limit(1);
    if (existing) return { id: existing.id, created: false };
    const { firstName, lastName } = intakeName(input);
    const [l] = await tx
      .insert(leads)
      .values({
        firstName,
        lastName,
        email,
        phone: input.phone ?? null,
        country: input.country ?? null,
        city: input.city || null,
        funnelLink: input.funnelLink ?? null,
        reference: input.reference || null,
        leadSourceId: input.leadSourceId || null,
        leadStatus: await defaultSalesStatus(tx),
        group: 'sales',
        source: source.kind === 'affiliate' ? 'affiliate' : 'live',
        userId: source.kind === 'affiliate' ? source.affiliateId : null,
      })
      .returning();
    // The audit says it came through the API and with which key (its visible prefix; the site key by name only).
    await writeAudit(tx, {
      actorId: source.kind === 'affiliate' ? source.affiliateId : null,
      targetUserId: null,
      action: 'lead.create',
      before: null,
      after: { ...snapshot(l), via: 'api', api_key: source.kind === 'affiliate' ? source.prefix : 'site webhook key' },
      ip,
      subjectType: 'lead',
      subjectId: l.id,
    });
    return { id: l.id, created: true };
  });
}
