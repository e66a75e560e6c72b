import { and, eq, gt, lt, ne, or } from 'drizzle-orm';
import { normaliseIP, type RoleId } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { ipWhitelists, sessions, users } from '../../db/schema.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { tellPeers } from '../../cluster/peers.ts';

export const SESSION_COOKIE = 'sid';
/** "Remember Me" sessions last 30 days; others end with the browser, and server-side after 12 hours idle. */
export const REMEMBER_MS = 30 * 24 * 3600 * 1000;
export const SESSION_MS = 12 * 3600 * 1000;

export interface SessionUser {
  id: number;
  roleId: RoleId;
  email: string;
  fullName: string;
}
export interface AuthState {
  user: SessionUser;
  sessionId: number;
  impersonatorId: number | null;
  remember: boolean;
}

export async function createSession(
  db: DbOrTx,
  input: { userId: number; remember: boolean; ip?: string; userAgent?: string; impersonatorId?: number | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + (input.remember ? REMEMBER_MS : SESSION_MS));
  await db.insert(sessions).values({
    userId: input.userId,
    tokenHash: sha256(token),
    remember: input.remember,
    impersonatorId: input.impersonatorId ?? null,
    ip: input.ip?.slice(0, 64),
    userAgent: input.userAgent?.slice(0, 255),
    expiresAt,
  });
  // resolveSession refreshes this at most once a minute; stamping it here shows a fresh sign-in as online at once.
  // A sign-in of the user's own is their last login (the lists' LAST LOGIN); "Login as" is staff's, not theirs.
  const now = new Date();
  await db
    .update(users)
    .set(input.impersonatorId ? { lastSeenAt: now } : { lastSeenAt: now, lastLoginAt: now })
    .where(eq(users.id, input.userId));
  return { token, expiresAt };
}

/**
 * Customers' own sessions, resolved within the last few seconds, by token hash. Trading screens call the API many
 * times a second, and re-reading the session and user rows for each call doubled the database work of an order.
 * Staff sessions and "Login as" sessions are never kept: they depend on the IP whitelist, checked on every request.
 * Whatever ends a customer's access goes through destroySession or destroyUserSessions (sign-out, sign-in rotation,
 * password change and reset, deactivation, deletion), which drop that user's entries at once in this process
 * and, through the cluster bus, on the other instances (within CACHE_TTL_MS should a message be lost).
 */
const CACHE_TTL_MS = 5_000;
/**
 * After a user's sessions are ended nothing of theirs is cached for this long: the ending transaction may not have
 * committed yet, and a request reading the old rows meanwhile must not put them back into the cache.
 */
const REVOKED_HOLD_MS = 30_000;
const CACHE_MAX = 50_000;
const resolved = new Map<string, { auth: AuthState; until: number }>();
const revokedUntil = new Map<number, number>();

/** Drops every cached session of a user, here and on the other instances, and keeps the user out of the cache while the change commits. */
export function forgetUserSessions(userId: number): void {
  forgetUserSessionsHere(userId);
  tellPeers({ kind: 'sessions', userId });
}

/** The same for this instance only (a peer's message). */
export function forgetUserSessionsHere(userId: number): void {
  const now = Date.now();
  revokedUntil.set(userId, now + REVOKED_HOLD_MS);
  for (const [hash, entry] of resolved) if (entry.auth.user.id === userId) resolved.delete(hash);
  for (const [id, until] of revokedUntil) if (until <= now) revokedUntil.delete(id);
}

function keep(hash: string, auth: AuthState, expiresAt: Date): void {
  const now = Date.now();
  if ((revokedUntil.get(auth.user.id) ?? 0) > now) return;
  // Entries expire by time, so a full map is simply emptied rather than tracked for least-recent use.
  if (resolved.size >= CACHE_MAX) resolved.clear();
  resolved.set(hash, { auth, until: Math.min(now + CACHE_TTL_MS, expiresAt.getTime()) });
}

/** Resolves a cookie token to its live session and user, or null (expired, inactive, deleted, IP not allowed). */
export async function resolveSession(db: DbOrTx, token: string, ip: string): Promise<AuthState | null> {
  const tokenHash = sha256(token);
  const hit = resolved.get(tokenHash);
  if (hit) {
    if (hit.until > Date.now()) return hit.auth;
    resolved.delete(tokenHash);
  }
  const [row] = await db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
      remember: sessions.remember,
      impersonatorId: sessions.impersonatorId,
      userId: users.id,
      roleId: users.roleId,
      email: users.email,
      fullName: users.fullName,
      isActive: users.isActive,
      deletedAt: users.deletedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row || !row.isActive || row.deletedAt) return null;
  // The whitelist binds the person at the keyboard: during "Login as" it is the staff member's.
  const staffId = row.impersonatorId ?? (row.roleId !== 3 ? row.userId : null);
  if (staffId !== null && !(await ipAllowed(db, staffId, ip))) return null;
  const now = Date.now();
  let expiresAt = row.expiresAt;
  if (now - row.lastUsedAt.getTime() > 60_000) {
    // Sliding expiry for browser sessions; remembered sessions keep their 30 days.
    if (!row.remember) expiresAt = new Date(now + SESSION_MS);
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now), expiresAt })
      .where(eq(sessions.id, row.sessionId));
    await db
      .update(users)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(users.id, row.userId));
  }
  const auth: AuthState = {
    user: { id: row.userId, roleId: row.roleId as RoleId, email: row.email, fullName: row.fullName },
    sessionId: row.sessionId,
    impersonatorId: row.impersonatorId,
    remember: row.remember,
  };
  if (staffId === null) keep(tokenHash, auth, expiresAt);
  return auth;
}

/** A blank whitelist allows any address. */
export async function ipAllowed(db: DbOrTx, userId: number, ip: string): Promise<boolean> {
  const list = await db
    .select({ ip: ipWhitelists.ipAddress })
    .from(ipWhitelists)
    .where(eq(ipWhitelists.userId, userId));
  if (list.length === 0) return true;
  const mine = normaliseIP(ip);
  return list.some((w) => normaliseIP(w.ip) === mine);
}

export async function destroySession(db: DbOrTx, sessionId: number): Promise<void> {
  const ended = await db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ userId: sessions.userId });
  for (const { userId } of ended) forgetUserSessions(userId);
}

/**
 * Ends every session of a user (deactivation, password change and reset, deletion, two-factor reset or newly
 * required), and every "Login as" session a staff member opened: those belong to the customer (user_id) and name the
 * staff member as impersonator, and must not outlive the staff member's own access. They are never cached (see
 * resolveSession), so the rows going is enough.
 */
export async function destroyUserSessions(db: DbOrTx, userId: number, exceptSessionId?: number): Promise<void> {
  forgetUserSessions(userId);
  await db
    .delete(sessions)
    .where(
      and(
        or(eq(sessions.userId, userId), eq(sessions.impersonatorId, userId)),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    );
}

export async function purgeExpiredSessions(db: DbOrTx): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
