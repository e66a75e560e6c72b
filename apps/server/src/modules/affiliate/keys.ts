import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { AFFILIATE_KEY_PREFIX, type AffiliateApiKeyGenerated, type AffiliateApiKeyResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { affiliateApiKeys, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { getSetting } from '../settings/service.ts';

/** Characters of the key kept in clear to recognise it: the prefix and 7 random characters. */
const SHOWN = AFFILIATE_KEY_PREFIX.length + 7;

/** Who a presented key belongs to: an affiliate, or the site's leads webhook (site setting webhookApiKeyLeads). */
export type IntakeSource = { kind: 'affiliate'; affiliateId: number; prefix: string } | { kind: 'site' };

/** GET /affiliate/api: the key's first characters and age; the key itself is not kept, so it is never returned here. */
export async function getApiKey(db: DbOrTx, affiliateId: number): Promise<AffiliateApiKeyResponse> {
  const [row] = await db.select().from(affiliateApiKeys).where(eq(affiliateApiKeys.userId, affiliateId));
  return { key: null, prefix: row?.prefix ?? null, created_at: row?.createdAt.toISOString() ?? null };
}

/**
 * POST /affiliate/api: a new random key (240 bits) replaces the affiliate's key in one statement, so the old key stops
 * working the moment this commits. The whole key is in this answer only; the audit keeps its first characters.
 */
export async function generateApiKey(db: DbOrTx, actor: StaffActor): Promise<AffiliateApiKeyGenerated> {
  const key = `${AFFILIATE_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
  const prefix = key.slice(0, SHOWN);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ prefix: affiliateApiKeys.prefix })
      .from(affiliateApiKeys)
      .where(eq(affiliateApiKeys.userId, actor.id));
    const [row] = await tx
      .insert(affiliateApiKeys)
      .values({ userId: actor.id, keyHash: sha256(key), prefix })
      .onConflictDoUpdate({
        target: affiliateApiKeys.userId,
        set: { keyHash: sha256(key), prefix, createdAt: new Date() },
      })
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: actor.id,
      action: 'affiliate.api_key_generate',
      before: before ? { prefix: before.prefix } : null,
      after: { prefix },
      ip: actor.ip,
    });
    return { message: 'API key generated successfully', key, prefix, created_at: row.createdAt.toISOString() };
  });
}

/** Compares two secrets in constant time (through their hashes, so lengths do not matter either). */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(Buffer.from(sha256(a), 'hex'), Buffer.from(sha256(b), 'hex'));

/**
 * The owner of a presented key, or null. An affiliate's key works while the affiliate is an active, not deleted
 * role-4 user; the site's key while the webhookApiKeyLeads setting holds it (an empty setting turns it off).
 */
export async function resolveApiKey(db: DbOrTx, presented: string): Promise<IntakeSource | null> {
  // Read fresh (one row by key): the settings cache holds one key set at a time and serves the order path.
  const site = (await getSetting(db, 'webhookApiKeyLeads'))?.value1 ?? '';
  if (site && sameSecret(site, presented)) return { kind: 'site' };
  // A lookup by the key's hash: nothing about the key can be learnt from how long it takes.
  const [row] = await db
    .select({ id: users.id, prefix: affiliateApiKeys.prefix })
    .from(affiliateApiKeys)
    .innerJoin(users, eq(users.id, affiliateApiKeys.userId))
    .where(
      and(
        eq(affiliateApiKeys.keyHash, sha256(presented)),
        eq(users.roleId, 4),
        eq(users.isActive, true),
        isNull(users.deletedAt),
      ),
    );
  return row ? { kind: 'affiliate', affiliateId: row.id, prefix: row.prefix } : null;
}
