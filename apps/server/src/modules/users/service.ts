import { and, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  PagedQuery,
  StaffUserCreateRequest,
  StaffUserDto,
  StaffUserListResponse,
  StaffUserUpdateRequest,
} from '@platform/domain';
import { STAFF_ROLES, type RoleId } from '@platform/domain';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { ipWhitelists, sessions, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';

type CreateInput = z.output<typeof StaffUserCreateRequest>;
type UpdateInput = z.output<typeof StaffUserUpdateRequest>;
type UserRow = typeof users.$inferSelect;

/** Who is acting, for the audit trail and the rules about one's own account. */
export interface Actor {
  id: number;
  sessionId: number;
  ip: string;
}

/** A user counts as online when a request of theirs was seen within this window. */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });

/** Staff are every non-customer role; customers share the table but are managed elsewhere. */
const isStaffRow = and(ne(users.roleId, 3), isNull(users.deletedAt));

function assertStaffRole(roleId: number): asserts roleId is RoleId {
  if (!(STAFF_ROLES as readonly number[]).includes(roleId))
    throw new AppError('INVALID_ROLE', undefined, { roleId: 'This role cannot be managed here.' });
}

function toDto(u: UserRow, whitelist: string[], now = Date.now()): StaffUserDto {
  return {
    id: u.id,
    full_name: u.fullName,
    email: u.email,
    role_id: u.roleId,
    is_email_verified: u.isEmailVerified,
    is_active: u.isActive,
    online: u.lastSeenAt !== null && now - u.lastSeenAt.getTime() <= ONLINE_WINDOW_MS,
    whitelists: whitelist.map((ip_address) => ({ ip_address })),
    created_at: u.createdAt.toISOString(),
  };
}

/** What the audit trail keeps of a staff user: the editable fields, never the password hash. */
function snapshot(u: UserRow, whitelist: string[]): Record<string, unknown> {
  return {
    full_name: u.fullName,
    email: u.email,
    role_id: u.roleId,
    is_email_verified: u.isEmailVerified,
    is_active: u.isActive,
    whitelist,
  };
}

async function whitelistsOf(db: DbOrTx, userIds: number[]): Promise<Map<number, string[]>> {
  const map = new Map<number, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return map;
  const rows = await db
    .select({ userId: ipWhitelists.userId, ip: ipWhitelists.ipAddress })
    .from(ipWhitelists)
    .where(inArray(ipWhitelists.userId, userIds))
    .orderBy(ipWhitelists.id);
  for (const r of rows) map.get(r.userId)?.push(r.ip);
  return map;
}

async function replaceWhitelist(tx: Tx, userId: number, ips: string[]): Promise<string[]> {
  const unique = [...new Set(ips)];
  await tx.delete(ipWhitelists).where(eq(ipWhitelists.userId, userId));
  if (unique.length > 0) await tx.insert(ipWhitelists).values(unique.map((ipAddress) => ({ userId, ipAddress })));
  return unique;
}

/** Ends a user's sessions, including any "Login as" session they hold as the impersonating staff member. */
async function endSessions(tx: Tx, userId: number, keepSessionId?: number): Promise<void> {
  await tx
    .delete(sessions)
    .where(
      and(
        or(eq(sessions.userId, userId), eq(sessions.impersonatorId, userId)),
        keepSessionId !== undefined ? ne(sessions.id, keepSessionId) : undefined,
      ),
    );
}

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

/**
 * Locks the active admins (in id order) and then the target staff row. Taking the admin set first, always in
 * the same order, serialises concurrent removals (two admins deleting each other at once: the second sees the
 * first's change) without the deadlock that locking the target first could cause.
 */
async function lockForChange(tx: Tx, id: number): Promise<{ before: UserRow; adminIds: number[] }> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.roleId, 1), eq(users.isActive, true), isNull(users.deletedAt)))
    .orderBy(users.id)
    .for('update');
  const [before] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), isStaffRow))
    .for('update');
  if (!before) throw new AppError('USER_NOT_FOUND');
  return { before, adminIds: admins.map((a) => a.id) };
}

/** Refuses a change that would take away the last active admin. */
function assertAdminRemains(adminIds: number[], leavingUserId: number): void {
  if (adminIds.includes(leavingUserId) && adminIds.length === 1) throw new AppError('LAST_ADMIN');
}

/** GET /admin/users/api: staff (any role but customer), not deleted, newest first, searched by name or email. */
export async function listStaff(db: DbOrTx, q: PagedQuery): Promise<StaffUserListResponse> {
  const where = and(isStaffRow, searchAny(q.search, [users.fullName, users.email]));
  const [{ n }] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db.select().from(users).where(where).orderBy(desc(users.id)).limit(q.limit).offset(offsetOf(q));
  const wl = await whitelistsOf(
    db,
    rows.map((r) => r.id),
  );
  const now = Date.now();
  return { data: rows.map((r) => toDto(r, wl.get(r.id) ?? [], now)), meta: pageMeta(q, n) };
}

/** GET /admin/users/{id}: customers and deleted users are not reachable here (404). */
export async function getStaff(db: DbOrTx, id: number): Promise<StaffUserDto> {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isStaffRow))
    .limit(1);
  if (!u) throw new AppError('USER_NOT_FOUND');
  const wl = await whitelistsOf(db, [u.id]);
  return toDto(u, wl.get(u.id) ?? []);
}

/** POST /admin/users */
export async function createStaff(db: Db, actor: Actor, input: CreateInput): Promise<StaffUserDto> {
  assertStaffRole(input.roleId);
  // Hashing is slow on purpose; done before the transaction so no row locks wait on it.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const [u] = await tx
        .insert(users)
        .values({
          fullName: input.fullName,
          email: input.email,
          passwordHash,
          roleId: input.roleId,
          isEmailVerified: input.isEmailVerified,
          isActive: input.isActive,
        })
        .returning();
      const wl = await replaceWhitelist(tx, u.id, input.whitelist);
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: u.id,
        action: 'staff.create',
        before: null,
        after: snapshot(u, wl),
        ip: actor.ip,
      });
      return toDto(u, wl);
    });
  } catch (err) {
    // Two creations with one email at once: the case-insensitive unique index decides.
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
}

/**
 * PUT /admin/users/{id}: replaces the fields and the whitelist. A new password or a deactivation ends the
 * user's sessions at once (the acting admin keeps the session they are using when editing themself).
 */
export async function updateStaff(db: Db, actor: Actor, id: number, input: UpdateInput): Promise<void> {
  assertStaffRole(input.roleId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  try {
    await db.transaction(async (tx) => {
      const { before, adminIds } = await lockForChange(tx, id);
      const self = before.id === actor.id;
      if (self && (!input.isActive || input.roleId !== before.roleId)) throw new AppError('SELF_LOCKOUT');
      if (input.roleId !== 1 || !input.isActive) assertAdminRemains(adminIds, id);
      if (input.email.toLowerCase() !== before.email.toLowerCase()) await assertEmailFree(tx, input.email, id);

      const [after] = await tx
        .update(users)
        .set({
          fullName: input.fullName,
          email: input.email,
          roleId: input.roleId,
          isEmailVerified: input.isEmailVerified,
          isActive: input.isActive,
          ...(passwordHash ? { passwordHash } : {}),
        })
        .where(eq(users.id, id))
        .returning();
      const oldWl = (await whitelistsOf(tx, [id])).get(id) ?? [];
      const newWl = await replaceWhitelist(tx, id, input.whitelist);
      if (passwordHash || !input.isActive) await endSessions(tx, id, self ? actor.sessionId : undefined);
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: id,
        action: 'staff.update',
        before: snapshot(before, oldWl),
        after: { ...snapshot(after, newWl), ...(passwordHash ? { password_changed: true } : {}) },
        ip: actor.ip,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
}

/** DELETE /admin/users/{id}: soft delete (history keeps its references) and every session of the user ends. */
export async function deleteStaff(db: Db, actor: Actor, id: number): Promise<void> {
  if (id === actor.id) throw new AppError('CANNOT_DELETE_SELF');
  await db.transaction(async (tx) => {
    const { before, adminIds } = await lockForChange(tx, id);
    assertAdminRemains(adminIds, id);
    await tx.update(users).set({ deletedAt: new Date() }).where(eq(users.id, id));
    await endSessions(tx, id);
    const wl = (await whitelistsOf(tx, [id])).get(id) ?? [];
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: id,
      action: 'staff.delete',
      before: snapshot(before, wl),
      after: null,
      ip: actor.ip,
    });
  });
}
