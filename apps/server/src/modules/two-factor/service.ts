import { and, eq, inArray, isNotNull, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { STAFF_ROLES, type RoleId } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { staffTwoFactor, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { verifyPassword } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { getBranding, getSetting, putSetting } from '../settings/service.ts';
import { destroyUserSessions } from '../auth/sessions.ts';
import { acceptedStep, hashRecoveryCode, newRecoveryCodes, newSecret, setupPayload } from './totp.ts';

export const POLICY_KEY = 'staffTwoFactor';
type Row = typeof staffTwoFactor.$inferSelect;
interface Actor {
  id: number;
  ip: string;
}

/** The staff roles that must use two-factor sign-in (settings record staffTwoFactor, value1 "2,4"). */
export async function requiredRoles(db: DbOrTx): Promise<number[]> {
  const row = await getSetting(db, POLICY_KEY);
  return (row?.value1 ?? '')
    .split(',')
    .map((r) => Number(r.trim()))
    .filter((r) => (STAFF_ROLES as readonly number[]).includes(r));
}

export const isRequiredFor = async (db: DbOrTx, roleId: number): Promise<boolean> =>
  (await requiredRoles(db)).includes(roleId);

export async function rowOf(db: DbOrTx, userId: number): Promise<Row | null> {
  const [row] = await db.select().from(staffTwoFactor).where(eq(staffTwoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** The audit action of a user's own two-factor change: `staff.two_factor_enable`, `account.two_factor_enable`. */
const ownAction = (roleId: number, what: 'enable' | 'disable' | 'recovery_codes') =>
  `${roleId === 3 ? 'account' : 'staff'}.two_factor_${what}`;

export const isEnabled = (row: Row | null): row is Row & { enabledAt: Date } => !!row?.enabledAt;

/**
 * Accepts an app code once: the step it belongs to must be later than the last accepted one, and the conditional
 * update settles two requests racing with the same code.
 */
export async function acceptCode(db: DbOrTx, row: Row, code: string): Promise<boolean> {
  const step = acceptedStep(row.secret, code);
  if (step === null || (row.lastStep !== null && step <= row.lastStep)) return false;
  const updated = await db
    .update(staffTwoFactor)
    .set({ lastStep: step })
    .where(and(eq(staffTwoFactor.userId, row.userId), sql`coalesce(${staffTwoFactor.lastStep}, -1) < ${step}`))
    .returning({ userId: staffTwoFactor.userId });
  return updated.length === 1;
}

/** Uses up one unused recovery code; the update only applies to the list as read, so a code works once. */
export async function acceptRecoveryCode(db: DbOrTx, row: Row, code: string): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  const i = row.recoveryCodes.findIndex((c) => c.hash === hash && c.usedAt === null);
  if (i < 0) return false;
  const next = row.recoveryCodes.map((c, j) => (j === i ? { ...c, usedAt: new Date().toISOString() } : c));
  const updated = await db
    .update(staffTwoFactor)
    .set({ recoveryCodes: next })
    .where(
      and(
        eq(staffTwoFactor.userId, row.userId),
        sql`${staffTwoFactor.recoveryCodes} = ${JSON.stringify(row.recoveryCodes)}::jsonb`,
      ),
    )
    .returning({ userId: staffTwoFactor.userId });
  return updated.length === 1;
}

/** Starts (or restarts) a set-up: a new pending secret, its link and QR image. Refused once it is on. */
export async function startSetup(db: DbOrTx, user: { id: number; email: string }) {
  const row = await rowOf(db, user.id);
  if (isEnabled(row)) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  const secret = newSecret();
  await db
    .insert(staffTwoFactor)
    .values({ userId: user.id, secret })
    .onConflictDoUpdate({
      target: staffTwoFactor.userId,
      set: { secret, lastStep: null, recoveryCodes: [], createdAt: new Date() },
    });
  const { appName } = await getBranding(db);
  return setupPayload(secret, appName, user.email);
}

/**
 * Turns two-factor sign-in on with a code from the pending secret; returns the recovery codes, shown this once.
 * Null when the code is wrong (the caller decides whether that counts as a failed sign-in).
 */
export async function completeSetup(
  db: DbOrTx,
  userId: number,
  code: string,
  ip: string,
  roleId: number,
): Promise<string[] | null> {
  const row = await rowOf(db, userId);
  if (isEnabled(row)) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  if (!row) throw new AppError('TWO_FACTOR_NOT_SET_UP');
  return db.transaction(async (tx) => {
    if (!(await acceptCode(tx, row, code))) return null;
    const { codes, stored } = newRecoveryCodes();
    await tx
      .update(staffTwoFactor)
      .set({ enabledAt: new Date(), recoveryCodes: stored })
      .where(eq(staffTwoFactor.userId, userId));
    await writeAudit(tx, { actorId: userId, targetUserId: userId, action: ownAction(roleId, 'enable'), ip });
    return codes;
  });
}

export async function status(db: DbOrTx, user: { id: number; roleId: number }) {
  const row = await rowOf(db, user.id);
  return {
    enabled: isEnabled(row),
    required: await isRequiredFor(db, user.roleId),
    recoveryCodesLeft: isEnabled(row) ? row.recoveryCodes.filter((c) => c.usedAt === null).length : 0,
  };
}

/** Checks an app code of a signed-in user for a sensitive change; wrong codes count toward the account's sign-in lock. */
async function assertOwnCode(
  ctx: AppContext,
  user: { id: number; email: string },
  ip: string,
  code: string,
): Promise<Row> {
  const row = await rowOf(ctx.db, user.id);
  if (!isEnabled(row)) throw new AppError('TWO_FACTOR_NOT_ENABLED');
  const attempt = await ctx.signInLimits.begin(user.email, ip);
  if (!(await acceptCode(ctx.db, row, code))) {
    await attempt.failed();
    throw new AppError('TWO_FACTOR_CODE_INVALID');
  }
  await attempt.abandoned();
  return row;
}

export async function disable(
  ctx: AppContext,
  user: { id: number; email: string; roleId: number },
  ip: string,
  input: { password: string; code: string },
) {
  if (await isRequiredFor(ctx.db, user.roleId)) throw new AppError('TWO_FACTOR_REQUIRED');
  const [u] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id))
    .limit(1);
  if (!u || !(await verifyPassword(u.passwordHash, input.password))) throw new AppError('WRONG_PASSWORD');
  await assertOwnCode(ctx, user, ip, input.code);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(staffTwoFactor).where(eq(staffTwoFactor.userId, user.id));
    await writeAudit(tx, { actorId: user.id, targetUserId: user.id, action: ownAction(user.roleId, 'disable'), ip });
  });
}

export async function regenerateRecoveryCodes(
  ctx: AppContext,
  user: { id: number; email: string; roleId: number },
  ip: string,
  code: string,
): Promise<string[]> {
  await assertOwnCode(ctx, user, ip, code);
  const { codes, stored } = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await tx.update(staffTwoFactor).set({ recoveryCodes: stored }).where(eq(staffTwoFactor.userId, user.id));
    await writeAudit(tx, {
      actorId: user.id,
      targetUserId: user.id,
      action: ownAction(user.roleId, 'recovery_codes'),
      ip,
    });
  });
  return codes;
}

/**
 * An admin turns a user's two-factor sign-in off (lost phone and recovery codes): a staff user's, or a customer's from
 * the customer's Security tab. The user is signed out everywhere and signs in with the password alone.
 */
export async function adminReset(ctx: AppContext, actor: Actor, userId: number): Promise<string> {
  const [u] = await ctx.db
    .select({ email: users.email, roleId: users.roleId, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u || u.deletedAt) throw new AppError('USER_NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(staffTwoFactor)
      .where(eq(staffTwoFactor.userId, userId))
      .returning({ enabledAt: staffTwoFactor.enabledAt });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: userId,
      action: u.roleId === 3 ? 'customer.two_factor_reset' : 'staff.two_factor_reset',
      before: { enabled: !!removed[0]?.enabledAt },
      after: { enabled: false },
      ip: actor.ip,
    });
    await destroyUserSessions(tx, userId);
  });
  return `Two-factor sign-in was reset for ${u.email}`;
}

/**
 * Saves the roles that must use two-factor sign-in. Requiring admins needs the acting admin to use it already, so
 * nobody locks themselves out. Users of a newly required role who have not turned it on are signed out, to enrol at
 * their next sign-in.
 */
export async function savePolicy(ctx: AppContext, actor: Actor, roles: number[]): Promise<number[]> {
  if (roles.includes(1) && !isEnabled(await rowOf(ctx.db, actor.id))) throw new AppError('TWO_FACTOR_ADMIN_FIRST');
  const before = await requiredRoles(ctx.db);
  const added = roles.filter((r) => !before.includes(r)) as RoleId[];
  await ctx.db.transaction(async (tx) => {
    await putSetting(tx, POLICY_KEY, { value1: roles.join(',') });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.two_factor_policy',
      before: { roles: before },
      after: { roles },
      ip: actor.ip,
    });
    if (added.length === 0) return;
    const enrolled = tx
      .select({ id: staffTwoFactor.userId })
      .from(staffTwoFactor)
      .where(isNotNull(staffTwoFactor.enabledAt));
    const affected = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          inArray(users.roleId, added),
          isNull(users.deletedAt),
          notInArray(users.id, enrolled),
          ne(users.id, actor.id),
        ),
      );
    for (const { id } of affected) await destroyUserSessions(tx, id);
  });
  return roles;
}
