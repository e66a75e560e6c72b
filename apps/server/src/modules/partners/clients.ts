import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { partnerClientHistory, partnerClients, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

/**
 * Which partner a client belongs to (docs/decisions.md "Partners"), first of:
 * 1. staff's assignment (partner_clients, also "no partner"),
 * 2. the affiliate whose promo code the client typed at sign-up (their own act, at the moment they joined),
 * 3. the affiliate whose lead the client was linked from, the earliest such lead if several.
 * Only affiliates (role 4) are partners: a manager's or agent's promo code or lead brings no partner.
 */

export type ClientSource = 'staff' | 'promo' | 'lead';

/** The partner of the customer whose id is `customer` (an SQL expression), and the rule that decided it. */
export const partnerOfSql = (customer: SQL) => sql`
  (select case when pc.customer_id is not null then pc.partner_id else coalesce(promo.user_id, lead.user_id) end
     from (select 1) one
     left join partner_clients pc on pc.customer_id = ${customer}
     left join lateral (
       select c.user_id from users cu join promo_codes c on c.id = cu.promo_code_id
        join users a on a.id = c.user_id and a.role_id = 4 and a.deleted_at is null
        where cu.id = ${customer}) promo on true
     left join lateral (
       select l.user_id from leads l join users a on a.id = l.user_id and a.role_id = 4 and a.deleted_at is null
        where l.linked_user_id = ${customer} and l.deleted_at is null order by l.id limit 1) lead on true)`;

export const clientSourceSql = (customer: SQL) => sql`
  (case when exists (select 1 from partner_clients pc where pc.customer_id = ${customer}) then 'staff'
        when exists (select 1 from users cu join promo_codes c on c.id = cu.promo_code_id
                      join users a on a.id = c.user_id and a.role_id = 4 where cu.id = ${customer}) then 'promo'
        else 'lead' end)`;

/** The partner of one customer (null: none). */
export async function partnerOf(db: DbOrTx, customerId: number): Promise<number | null> {
  const [row] = (
    (await db.execute(sql`select ${partnerOfSql(sql`${customerId}::int`)} as partner_id`)) as unknown as {
      rows: Array<{ partner_id: number | null }>;
    }
  ).rows;
  return row?.partner_id ?? null;
}

/**
 * The ids of a partner's clients, as a subquery: the rules above read from the partner's side, each rule's
 * candidates kept where no earlier rule names someone (a customer staff assigned, or who typed an affiliate's code,
 * is nobody else's), so no candidate needs the whole rule evaluated for it.
 */
export const clientsOfSql = (partnerId: number) => sql`
  (select cand.id from (
     select pc.customer_id as id from partner_clients pc where pc.partner_id = ${partnerId}
     union
     select u.id from users u join promo_codes c on c.id = u.promo_code_id
      where c.user_id = ${partnerId} and not exists (select 1 from partner_clients pc where pc.customer_id = u.id)
     union
     select l.linked_user_id from leads l
      where l.user_id = ${partnerId} and l.linked_user_id is not null and l.deleted_at is null
        and not exists (select 1 from partner_clients pc where pc.customer_id = l.linked_user_id)
        and not exists (select 1 from users cu join promo_codes c on c.id = cu.promo_code_id
                          join users a on a.id = c.user_id and a.role_id = 4 and a.deleted_at is null
                         where cu.id = l.linked_user_id)
   ) cand
   join users cu on cu.id = cand.id and cu.role_id = 3 and cu.deleted_at is null)`;

/**
 * PUT /admin/partners/clients/{customerId}: staff give a customer to a partner (or to none), with a reason; the
 * change is kept in the client's history and the audit trail. Earlier commissions stay with whoever earned them.
 */
export async function assignClient(
  db: DbOrTx,
  actor: StaffActor,
  customerId: number,
  input: { partnerId: number | null; reason: string },
): Promise<void> {
  const [customer] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, customerId), eq(users.roleId, 3), isNull(users.deletedAt)));
  if (!customer) throw new AppError('NOT_FOUND', 'Customer not found.');
  if (input.partnerId !== null) {
    const [partner] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.partnerId), eq(users.roleId, 4), isNull(users.deletedAt)));
    if (!partner) throw new AppError('NOT_FOUND', 'Partner not found.');
  }
  await db.transaction(async (tx) => {
    // The customer's row lock orders two assignments of one customer.
    await tx.execute(sql`select id from users where id = ${customerId} for update`);
    const before = await partnerOf(tx, customerId);
    const values = { partnerId: input.partnerId, reason: input.reason, assignedBy: actor.id, assignedAt: new Date() };
    await tx
      .insert(partnerClients)
      .values({ customerId, ...values })
      .onConflictDoUpdate({ target: partnerClients.customerId, set: values });
    await tx.insert(partnerClientHistory).values({
      customerId,
      fromPartnerId: before,
      toPartnerId: input.partnerId,
      reason: input.reason,
      actorId: actor.id,
    });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: customerId,
      action: 'partner.client_assign',
      subjectType: 'user',
      subjectId: customerId,
      before: { partnerId: before },
      after: input,
      ip: actor.ip,
    });
  });
}
