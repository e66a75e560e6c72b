import { and, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  maskEmail,
  maskPhone,
  type CustomerCreateRequest,
  type CustomerDetailResponse,
  type CustomerUpdateRequest,
  type StaffPickerItem,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { authTokens, balances, orders, pricingPlans, userProfiles, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { balanceDto } from '../auth/current-user.ts';
import { getBranding } from '../settings/service.ts';
import { forgetTrader } from '../trading/trader.ts';
import { openCustomerWallets } from '../wallets/open.ts';
import { destroyUserSessions } from '../auth/sessions.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime'>;
type CreateInput = z.output<typeof CustomerCreateRequest>;
type UpdateInput = z.output<typeof CustomerUpdateRequest>;
type UserRow = typeof users.$inferSelect;
type ProfileRow = typeof userProfiles.$inferSelect;

/** A customer row that still exists (deleted customers are kept, anonymised, for the records). */
export const liveCustomer = and(eq(users.roleId, 3), isNull(users.deletedAt));

/**
 * Customers a staff member may open (read): their edit scope, and for retention agents (role 6) the customers whose
 * lead is in their retention care (`leads.ret_id`), read-only with masked contacts (docs/decisions.md, Customers).
 */
export function viewScope(actor: Pick<StaffActor, 'id' | 'roleId'>, userIdColumn: AnyPgColumn): SQL {
  if (actor.roleId !== 6) return customerScope(actor, userIdColumn);
  return sql`exists (select 1 from leads rl where rl.linked_user_id = ${userIdColumn} and rl.ret_id = ${actor.id} and rl.deleted_at is null)`;
}

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });

async function assertEmailFree(tx: Tx, email: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
        exceptId !== undefined ? ne(users.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw emailTaken();
}

/** What the audit trail keeps of a customer: the editable fields, never the password hash. */
function snapshot(u: UserRow, p: ProfileRow | undefined): Record<string, unknown> {
  return {
    full_name: u.fullName,
    email: u.email,
    is_email_verified: u.isEmailVerified,
    is_active: u.isActive,
    pricing_table_id: u.pricingTableId,
    phone: p?.phone ?? null,
    birth_date: p?.birthDate ?? null,
    country: p?.country ?? null,
    city: p?.city ?? null,
    postal_code: p?.postalCode ?? null,
    address: p?.address ?? null,
    manager_id: p?.managerId ?? null,
  };
}

/**
 * GET /admin/share/users/{id}: a customer in the viewer's scope, or the viewer's own account (every staff member's
 * Profile item opens this screen). Role 6 reads contacts masked (back-office §5). Anything else is 404.
 */
export async function getCustomerDetail(ctx: Ctx, actor: StaffActor, id: number): Promise<CustomerDetailResponse> {
  const self = id === actor.id;
  const [row] = await ctx.db
    .select({ u: users, p: userProfiles })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(
      and(
        eq(users.id, id),
        isNull(users.deletedAt),
        self ? undefined : and(eq(users.roleId, 3), viewScope(actor, users.id)),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('CUSTOMER_NOT_FOUND');
  const { u, p } = row;
  const wallets = await ctx.db.select().from(balances).where(eq(balances.userId, id)).orderBy(balances.id);
  const online = await ctx.realtime.onlineUsers([id]);
  const masked = actor.roleId === 6 && !self;
  return {
    id: u.id,
    full_name: u.fullName,
    email: masked ? maskEmail(u.email) : u.email,
    role_id: u.roleId,
    is_email_verified: u.isEmailVerified,
    is_active: u.isActive,
    online: online.has(u.id),
    pricing_table_id: u.pricingTableId,
    manager_id: p?.managerId ?? null,
    balances: wallets.map(balanceDto),
    profile: {
      phone: p?.phone ? (masked ? maskPhone(p.phone) : p.phone) : null,
      birth_date: p?.birthDate ?? null,
      country: p?.country ?? null,
      city: p?.city ?? null,
      address: p?.address ?? null,
      postal_code: p?.postalCode ?? null,
      manager_id: p?.managerId ?? null,
    },
    read_only: actor.roleId === 6 || u.roleId !== 3,
  };
}

const profileValues = (input: CreateInput | UpdateInput) => ({
  phone: input.phone ?? null,
  birthDate: input.birthDate ?? null,
  country: input.country ?? null,
  city: input.city || null,
  postalCode: input.postalCode || null,
  address: input.address || null,
});

/**
 * POST /admin/customers: a customer (role 3) with its profile and the wallets sign-up opens. A manager's new
 * customer is assigned to that manager, so it stays in their scope.
 */
export async function createCustomer(ctx: Ctx, actor: StaffActor, input: CreateInput): Promise<number> {
  const branding = await getBranding(ctx.db);
  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const [u] = await tx
        .insert(users)
        .values({
          fullName: input.fullName,
          email: input.email,
          passwordHash,
          roleId: 3,
          isEmailVerified: input.isEmailVerified,
          isActive: input.isActive,
        })
        .returning();
      const [p] = await tx
        .insert(userProfiles)
        .values({ userId: u.id, ...profileValues(input), managerId: actor.roleId === 2 ? actor.id : null })
        .returning();
      await openCustomerWallets(tx, u.id, branding.appCurrency, branding.demoBalance);
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: u.id,
        action: 'customer.create',
        before: null,
        after: snapshot(u, p),
        ip: actor.ip,
      });
      return u.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
}

/** Locks a customer in the actor's edit scope, or 404. */
async function lockCustomer(tx: Tx, actor: StaffActor, id: number): Promise<{ u: UserRow; p: ProfileRow | undefined }> {
  const [u] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), liveCustomer, customerScope(actor, users.id)))
    .for('update');
  if (!u) throw new AppError('CUSTOMER_NOT_FOUND');
  const [p] = await tx.select().from(userProfiles).where(eq(userProfiles.userId, id)).for('update');
  return { u, p };
}

/** Ends a customer's sessions, "Login as" sessions on them included, and drops them from every instance's cache. */
async function endSessions(tx: Tx, userId: number): Promise<void> {
  await destroyUserSessions(tx, userId);
}

/**
 * PUT /admin/customers/{id}. Only admins assign the manager and the plan: a manager's form has them disabled, and
 * the server ignores them from a manager. A new password or a deactivation ends the customer's sessions.
 */
export async function updateCustomer(ctx: Ctx, actor: StaffActor, id: number, input: UpdateInput): Promise<void> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const admin = actor.roleId === 1;
  try {
    await ctx.db.transaction(async (tx) => {
      const { u: before, p: beforeProfile } = await lockCustomer(tx, actor, id);
      if (input.email.toLowerCase() !== before.email.toLowerCase()) await assertEmailFree(tx, input.email, id);
      const managerId = admin && input.managerId !== undefined ? input.managerId : (beforeProfile?.managerId ?? null);
      const pricingTableId = admin && input.pricingTableId !== undefined ? input.pricingTableId : before.pricingTableId;
      if (managerId !== null && managerId !== (beforeProfile?.managerId ?? null)) {
        const [m] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, managerId), eq(users.roleId, 2), eq(users.isActive, true), isNull(users.deletedAt)));
        if (!m) throw new AppError('MANAGER_NOT_FOUND', undefined, { managerId: 'Choose an active manager.' });
      }
      if (pricingTableId !== null && pricingTableId !== before.pricingTableId) {
        const [plan] = await tx
          .select({ id: pricingPlans.id })
          .from(pricingPlans)
          .where(eq(pricingPlans.id, pricingTableId));
        if (!plan) throw fieldError('pricingTableId', 'Choose an existing plan.');
      }
      const [after] = await tx
        .update(users)
        .set({
          fullName: input.fullName,
          email: input.email,
          isEmailVerified: input.isEmailVerified,
          isActive: input.isActive,
          pricingTableId,
          ...(passwordHash ? { passwordHash } : {}),
        })
        .where(eq(users.id, id))
        .returning();
      const profile = { ...profileValues(input), managerId };
      const [afterProfile] = beforeProfile
        ? await tx.update(userProfiles).set(profile).where(eq(userProfiles.userId, id)).returning()
        : await tx
            .insert(userProfiles)
            .values({ userId: id, ...profile })
            .returning();
      if (passwordHash || !input.isActive) await endSessions(tx, id);
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: id,
        action: 'customer.update',
        before: snapshot(before, beforeProfile),
        after: { ...snapshot(after, afterProfile), ...(passwordHash ? { password_changed: true } : {}) },
        ip: actor.ip,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
  // The trading path remembers a trader's plan and state; the next order reads them again.
  forgetTrader(ctx.db, id);
  if (!input.isActive || passwordHash) ctx.realtime.disconnectUser(id);
}

/**
 * DELETE /admin/customers/{id}: never erases. The account is deactivated, marked deleted, its sessions end and the
 * personal data the records do not need is anonymised; wallets, ledger, orders, deposits, withdrawals and KYC
 * records stay (docs/decisions.md). A customer with open positions is refused (409).
 */
export async function deleteCustomer(ctx: Ctx, actor: StaffActor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { u: before, p: beforeProfile } = await lockCustomer(tx, actor, id);
    // An order being placed holds its wallet row: waiting for the wallets means the count below sees it.
    await tx.select({ id: balances.id }).from(balances).where(eq(balances.userId, id)).for('update');
    const [{ open }] = await tx
      .select({ open: count() })
      .from(orders)
      .where(and(eq(orders.userId, id), isNull(orders.closeTime), isNull(orders.voidedAt)));
    if (open > 0) throw new AppError('CUSTOMER_HAS_OPEN_POSITIONS');
    const [after] = await tx
      .update(users)
      .set({
        isActive: false,
        deletedAt: new Date(),
        fullName: `Deleted customer #${id}`,
        email: `deleted-customer-${id}@deleted.invalid`,
        // No password can match: sign-in also refuses deleted accounts before looking at it.
        passwordHash: '!deleted',
        promoCode: null,
      })
      .where(eq(users.id, id))
      .returning();
    const [afterProfile] = await tx
      .update(userProfiles)
      .set({ phone: null, birthDate: null, address: null, city: null, postalCode: null })
      .where(eq(userProfiles.userId, id))
      .returning();
    await endSessions(tx, id);
    await tx.delete(authTokens).where(eq(authTokens.userId, id));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: id,
      action: 'customer.delete',
      before: snapshot(before, beforeProfile),
      after: { ...snapshot(after, afterProfile), deleted: true },
      ip: actor.ip,
    });
  });
  forgetTrader(ctx.db, id);
  ctx.realtime.disconnectUser(id);
}

/** Users of one staff role for the pickers (managers 2, agents 5, retention agents 6): active, not deleted. */
export async function staffOfRole(db: DbOrTx, roleId: number): Promise<StaffPickerItem[]> {
  const rows = await db
    .select({ id: users.id, full_name: users.fullName, email: users.email })
    .from(users)
    .where(and(eq(users.roleId, roleId), eq(users.isActive, true), isNull(users.deletedAt)))
    .orderBy(users.fullName, users.id);
  return rows;
}

/** True when the staff member may open this customer (the realtime watch uses the same rule as the screen). */
export async function canViewCustomer(
  db: DbOrTx,
  actor: Pick<StaffActor, 'id' | 'roleId'>,
  customerId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, customerId), liveCustomer, viewScope(actor, users.id)))
    .limit(1);
  return Boolean(row);
}
