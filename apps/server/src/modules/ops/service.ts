import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { shippedMigrations } from '../../db/client.ts';

/** Set when the process starts shutting down: the load balancer is told at once and sends no new requests. */
let draining = false;
export const markDraining = (): void => {
  draining = true;
};

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; redis: string; shutdown: string; leader: string };
}

/** What /readyz reports: the database answers, its migrations match this build, Redis answers (when configured). */
export async function readiness(ctx: Pick<AppContext, 'db' | 'config' | 'cluster'>): Promise<Readiness> {
  const checks: Readiness['checks'] = {
    database: 'ok',
    migrations: 'ok',
    redis: 'not configured',
    shutdown: draining ? 'draining' : 'no',
    // Informational: a follower serves requests as well as the leader does.
    leader: ctx.cluster.leadership.isLeader ? 'yes' : 'no',
  };
  try {
    const result = (await ctx.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: Array<{ n: number }> };
    const applied = result.rows[0]?.n ?? 0;
    const shipped = shippedMigrations();
    if (applied < shipped) checks.migrations = `${applied} of ${shipped} applied`;
  } catch (err) {
    checks.database = `unreachable: ${(err as Error).message}`;
    checks.migrations = 'unknown';
  }
  const redis = ctx.cluster.bus.redis;
  if (redis) {
    try {
      await redis.ping();
      checks.redis = 'ok';
    } catch (err) {
      checks.redis = `unreachable: ${(err as Error).message}`;
    }
  }
  const ready =
    !draining &&
    (checks.redis === 'ok' || checks.redis === 'not configured') &&
    checks.database === 'ok' &&
    checks.migrations === 'ok';
  return { ready, checks };
}
