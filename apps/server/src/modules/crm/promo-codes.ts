import { randomInt } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  PROMO_CODE_ALPHABET,
  PROMO_CODE_LENGTH,
  normalisePromoCode,
  type LeadGroup,
  type PromoCodeResponse,
} from '@platform/domain';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { leads, promoCodes, userProfiles, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { defaultSalesStatus } from './statuses.ts';

/**
 * Staff promo codes (back-office §2 Promo Code) and what they do at sign-up (docs/decisions.md, Promo codes): a
 * customer who signs up with a staff member's current code becomes a lead owned by that staff member.
 */

/** Staff roles that have a promo code (the menu's Promo Code roles). */
const CODE_ROLES = [1, 2, 4, 5, 6];

const newCode = (): string =>
  Array.from({ length: PROMO_CODE_LENGTH }, () => PROMO_CODE_ALPHABET[randomInt(PROMO_CODE_ALPHABET.length)]).join('');

const view = (row: { code: string; createdAt: Date } | undefined): PromoCodeResponse =>
  row ? { code: row.code, created_at: row.createdAt.toISOString() } : { code: null, created_at: null };

/** GET /admin/promo-code: the caller's current code, or null before they generate one. */
export async function currentPromoCode(db: DbOrTx, actor: StaffActor): Promise<PromoCodeResponse> {
  const [row] = await db
    .select({ code: promoCodes.code, createdAt: promoCodes.createdAt })
    .from(promoCodes)
    .where(and(eq(promoCodes.userId, actor.id), isNull(promoCodes.replacedAt)));
  return view(row);
}

/**
 * POST /admin/promo-code: a new random code for the caller, replacing their current one (kept, marked replaced, so
 * customers who signed up with it keep their link while new sign-ups with it link nobody). A code that happens to
 * exist already, or a second request of the same user at the same moment, is retried with a fresh code.
 */
export async function generatePromoCode(db: DbOrTx, actor: StaffActor): Promise<PromoCodeResponse> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const now = new Date();
        const [old] = await tx
          .update(promoCodes)
          .set({ replacedAt: now })
          .where(and(eq(promoCodes.userId, actor.id), isNull(promoCodes.replacedAt)))
          .returning({ code: promoCodes.code });
        const [row] = await tx.insert(promoCodes).values({ userId: actor.id, code: newCode() }).returning();
        await writeAudit(tx, {
          actorId: actor.id,
          targetUserId: actor.id,
          action: 'promo_code.generate',
          ip: actor.ip,
          before: old ? { code: old.code } : null,
          after: { code: row.code },
          subjectType: 'promo_code',
          subjectId: row.id,
        });
        return view(row);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new AppError('PROMO_CODE_UNAVAILABLE');
}

export interface SignupPromo {
  id: number;
  code: string;
  ownerId: number;
  ownerRole: number;
}

/**
 * The current code a sign-up typed (any case, spaces trimmed) whose owner is an active staff member, or null: an
 * unknown or replaced code, or one of a deleted or inactive account, links nothing (the sign-up goes on).
 */
export async function findSignupPromoCode(tx: DbOrTx, typed: string | null | undefined): Promise<SignupPromo | null> {
  const code = typed ? normalisePromoCode(typed) : '';
  if (!code || code.length > 16) return null;
  const [row] = await tx
    .select({ id: promoCodes.id, code: promoCodes.code, ownerId: users.id, ownerRole: users.roleId })
    .from(promoCodes)
    .innerJoin(users, eq(users.id, promoCodes.userId))
    .where(
      and(
        eq(promoCodes.code, code),
        isNull(promoCodes.replacedAt),
        inArray(users.roleId, CODE_ROLES),
        eq(users.isActive, true),
        isNull(users.deletedAt),
      ),
    );
  return row ?? null;
}

export interface SignupCustomer {
  id: number;
  fullName: string;
  email: string;
  phone: string | null;
  country: string | null;
  city: string | null;
}

/**
 * Links a new customer to the owner of the promo code they signed up with, in the sign-up's transaction: a live lead
 * linked to the customer, owned by an affiliate (4), assigned to a sales agent (5) or a retention agent (6, in
 * Retentions), or managed by a manager (2, who also becomes the customer's manager). An admin's code is only recorded
 * on the customer.
 */
export async function linkSignupToPromoCode(tx: Tx, customer: SignupCustomer, promo: SignupPromo): Promise<void> {
  const owner = promo.ownerId;
  const role = promo.ownerRole;
  if (role === 1) return;
  if (role === 2) await tx.update(userProfiles).set({ managerId: owner }).where(eq(userProfiles.userId, customer.id));
  const [first, ...rest] = customer.fullName.trim().split(/\s+/);
  const group: LeadGroup = role === 6 ? 'retentions' : 'sales';
  const [lead] = await tx
    .insert(leads)
    .values({
      firstName: first.slice(0, 100),
      lastName: rest.join(' ').slice(0, 100) || null,
      email: customer.email,
      phone: customer.phone,
      country: customer.country,
      city: customer.city,
      leadStatus: await defaultSalesStatus(tx),
      group,
      source: 'live',
      managerId: role === 2 ? owner : null,
      userId: role === 4 ? owner : null,
      agentId: role === 5 ? owner : null,
      retId: role === 6 ? owner : null,
      linkedUserId: customer.id,
    })
    .returning();
  await writeAudit(tx, {
    actorId: customer.id,
    targetUserId: customer.id,
    action: 'lead.signup',
    before: null,
    after: {
      first_name: lead.firstName,
      last_name: lead.lastName,
      group: lead.group,
      source: lead.source,
      lead_status: lead.leadStatus,
      manager_id: lead.managerId,
      agent_id: lead.agentId,
      ret_id: lead.retId,
      affiliate_id: lead.userId,
      promo_code: promo.code,
    },
    subjectType: 'lead',
    subjectId: lead.id,
  });
}
