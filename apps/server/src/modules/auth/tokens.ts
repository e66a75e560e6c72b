import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authTokens } from '../../db/schema.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

/** two_factor: the sign-in challenge between a right password and the second step (no session until it passes). */
export type TokenKind = 'verify_email' | 'reset_password' | 'two_factor';
const LIFETIME_MS: Record<TokenKind, number> = {
  verify_email: 48 * 3600_000,
  reset_password: 3600_000,
  two_factor: 5 * 60_000,
};

/**
 * Issues a single-use token; only its hash is stored. Earlier unused tokens of the same kind are voided. The row id
 * lets a mail refer to its token (and tell whether its link still works).
 */
export async function issueTokenRow(
  db: DbOrTx,
  userId: number,
  kind: TokenKind,
): Promise<{ id: number; token: string }> {
  const token = randomToken();
  await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
  const [row] = await db
    .insert(authTokens)
    .values({ userId, kind, tokenHash: sha256(token), expiresAt: new Date(Date.now() + LIFETIME_MS[kind]) })
    .returning({ id: authTokens.id });
  return { id: row.id, token };
}

/** Marks a live token used and returns its user, or null when unknown, used or expired. Atomic: one use only. */
export async function consumeToken(db: DbOrTx, token: string, kind: TokenKind): Promise<number | null> {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authTokens.tokenHash, sha256(token)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: authTokens.userId });
  return row?.userId ?? null;
}

/** A live token's row without using it up (a second step may be retried after a typo); null when unknown, used or expired. */
export async function peekToken(
  db: DbOrTx,
  token: string,
  kind: TokenKind,
): Promise<{ id: number; userId: number } | null> {
  const [row] = await db
    .select({ id: authTokens.id, userId: authTokens.userId })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.tokenHash, sha256(token)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Uses up a live token found by peekToken; false when another request used it first (or it expired meanwhile). */
export async function consumeTokenId(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.id, id), isNull(authTokens.usedAt), gt(authTokens.expiresAt, new Date())))
    .returning({ id: authTokens.id });
  return rows.length === 1;
}
