import Bowser from 'bowser';
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import { REAUTH_MINUTES, type SessionDto, type SignInDto, type SignInResult } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { sessions, signIns, users } from '../../db/schema.ts';
import { verifyPassword } from '../../lib/crypto.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { forgetUserSessions } from '../auth/sessions.ts';
import { acceptCode, isEnabled, rowOf } from '../two-factor/service.ts';

/** "Chrome 131 on Windows 10" from a user agent, or "Unknown device". */
export function deviceOf(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const ua = Bowser.parse(userAgent);
  const browser = [ua.browser.name, ua.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = [ua.os.name, ua.os.versionName ?? ua.os.version].filter(Boolean).join(' ');
  if (!browser && !os) return userAgent.slice(0, 60);
  return os ? `${browser || 'Browser'} on ${os}` : browser;
}

/** Records a sign-in attempt on a known account (its own statement: it stays even when the sign-in fails). */
export async function recordSignIn(
  db: DbOrTx,
  userId: number,
  result: SignInResult,
  meta: { ip: string; userAgent?: string },
): Promise<void> {
  await db
    .insert(signIns)
    .values({ userId, result, ip: meta.ip.slice(0, 64), userAgent: meta.userAgent?.slice(0, 255) });
}

/** The user's live sessions, newest first, the caller's own marked. */
export async function listSessions(db: DbOrTx, userId: number, currentId: number | null): Promise<SessionDto[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
  return rows.map((s) => ({
    id: s.id,
    device: deviceOf(s.userAgent),
    ip: s.ip,
    started_at: s.createdAt.toISOString(),
    last_seen_at: s.lastUsedAt.toISOString(),
    current: s.id === currentId,
    staff: s.impersonatorId !== null,
  }));
}

/** The last 30 sign-in attempts of the user, newest first. */
export async function listSignIns(db: DbOrTx, userId: number): Promise<SignInDto[]> {
  const rows = await db.select().from(signIns).where(eq(signIns.userId, userId)).orderBy(desc(signIns.id)).limit(30);
  return rows.map((r) => ({
    id: r.id,
    at: r.createdAt.toISOString(),
    ip: r.ip,
    device: deviceOf(r.userAgent),
    result: r.result as SignInResult,
  }));
}

/** DELETE /security/sessions/{id}: signs one of the user's own sessions out; another user's is a 404. */
export async function endSession(db: DbOrTx, userId: number, sessionId: number): Promise<void> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new AppError('SESSION_NOT_FOUND');
  forgetUserSessions(userId);
}

/** DELETE /security/sessions: every session of the user but this one; how many ended. */
export async function endOtherSessions(db: DbOrTx, userId: number, keepId: number): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
    .returning({ id: sessions.id });
  forgetUserSessions(userId);
  return ended.length;
}

/**
 * Sensitive changes (a withdrawal request, a new bank account, two-factor changes) need a session that signed in or
 * confirmed its password within the last 15 minutes; otherwise a 401 with `reauth: true`. Read from the session row
 * on each such call, so every instance agrees at once.
 */
export async function requireRecentAuth(db: DbOrTx, sessionId: number): Promise<void> {
  const [row] = await db
    .select({
      fresh: sql<boolean>`greatest(${sessions.createdAt}, coalesce(${sessions.confirmedAt}, ${sessions.createdAt})) > now() - make_interval(mins => ${REAUTH_MINUTES})`,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  if (!row?.fresh) throw new AppError('REAUTH_REQUIRED');
}

/**
 * POST /auth/confirm: checks the password (or, for a user with two-factor sign-in, an app code) of the person at the
 * keyboard and marks the session confirmed. Every attempt counts against the account's sign-in limits as a
 * sign-in does: a wrong answer stays counted, five lock the account for 15 minutes (429), a right one clears them.
 */
export async function confirmIdentity(
  ctx: AppContext,
  userId: number,
  sessionId: number,
  input: { password?: string; code?: string },
  ip: string,
): Promise<void> {
  const [u] = await ctx.db
    .select({ email: users.email, hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u) throw new AppError('UNAUTHENTICATED');
  const attempt = await ctx.signInLimits.begin(u.email, ip);
  let ok: boolean;
  try {
    if (input.code !== undefined) {
      const row = await rowOf(ctx.db, userId);
      ok = isEnabled(row) && (await acceptCode(ctx.db, row, input.code));
    } else ok = await verifyPassword(u.hash, input.password ?? '');
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!ok) {
    await attempt.failed();
    if (input.code !== undefined) throw fieldError('code', 'The code is not right. Try the current one.');
    throw fieldError('password', 'The password is not right.');
  }
  await attempt.succeeded();
  await confirmSession(ctx.db, sessionId);
}

/** Marks the session confirmed now (after the password or code was checked). */
export async function confirmSession(db: DbOrTx, sessionId: number): Promise<void> {
  await db.update(sessions).set({ confirmedAt: new Date() }).where(eq(sessions.id, sessionId));
}
