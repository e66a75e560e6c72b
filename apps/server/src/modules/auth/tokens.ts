import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authTokens } from '../../db/schema.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

export type TokenKind = 'verify_email' | 'reset_password';
const LIFETIME_MS: Record<TokenKind, number> = { verify_email: 48 * 3600_000, reset_password: 3600_000 };

/**
 * Issues a single-use token; only its hash is stored. Earlier unused tokens of the same kind are voided. The row id
 * lets a mail refer to its token (and tell whether its link still works).
 */
export async function issueTokenRow(db: DbOrTx, userId: number, kind: TokenKind): Promise<{ id: number; token: string }> {
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
