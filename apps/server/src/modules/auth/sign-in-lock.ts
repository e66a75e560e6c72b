import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';

async function emailOf(ctx: AppContext, userId: number): Promise<string> {
  const [u] = await ctx.db
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u || u.deletedAt) throw new AppError('USER_NOT_FOUND');
  return u.email;
}

/** GET /admin/users/{id}/sign-in-lock: whether failed sign-ins have locked the account, and for how long. */
export async function signInLockOf(ctx: AppContext, userId: number): Promise<{ locked: boolean; minutes: number }> {
  const minutes = await ctx.signInLimits.accountLockMinutes(await emailOf(ctx, userId));
  return { locked: minutes > 0, minutes };
}

/** DELETE /admin/users/{id}/sign-in-lock: an admin lets a locked-out user (staff or customer) try again at once. */
export async function clearSignInLock(
  ctx: AppContext,
  actor: { id: number; ip: string },
  userId: number,
): Promise<string> {
  const email = await emailOf(ctx, userId);
  const wasLocked = (await ctx.signInLimits.accountLockMinutes(email)) > 0;
  await ctx.signInLimits.clearAccount(email);
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: userId,
    action: 'user.sign_in_unlock',
    after: { was_locked: wasLocked },
    ip: actor.ip,
  });
  return wasLocked ? `Sign-in unlocked for ${email}` : `${email} was not locked`;
}
