import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { startVoisoSandbox, type VoisoSandbox } from '../../integrations/voiso/sandbox.ts';
import { parseCallEnd, recordCallEnd } from './call-ended.ts';

/**
 * Which telephony click-to-call uses when Trade APIs holds no Voiso settings: the built-in sandbox, in demo mode only
 * (VOISO_SANDBOX: by default the embedded database, never in tests unless asked). Like the sandbox card gateway it is
 * refused on a real database unless switched on, and a real Voiso saved in Trade APIs always wins (calls.ts).
 */
export function sandboxTelephonyOn(ctx: Pick<AppContext, 'config' | 'dbKind'>): boolean {
  const v = ctx.config.VOISO_SANDBOX;
  return v === 'true' || (v === 'auto' && ctx.dbKind === 'pglite' && ctx.config.NODE_ENV !== 'test');
}

/** The staff who work leads, as the sandbox's agents: sign-in email and an extension from their id. */
async function staffAgents(db: Db) {
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.roleId, [1, 2, 5, 6]), eq(users.isActive, true), isNull(users.deletedAt)))
    .orderBy(asc(users.id))
    .limit(5000);
  return rows.map((r) => ({ email: r.email.toLowerCase(), ext: String(1000 + r.id) }));
}

/** One sandbox per database (per app), started on first use and stopped with the app. */
const running = new WeakMap<Db, Promise<VoisoSandbox>>();

export function voisoSandbox(ctx: Pick<AppContext, 'db'>): Promise<VoisoSandbox> {
  let s = running.get(ctx.db);
  if (!s) {
    s = startVoisoSandbox({
      agents: () => staffAgents(ctx.db),
      // The end of each call, read as Voiso's report is: its duration and disposition go on the call log.
      onCallEnded: async (report) => {
        const end = parseCallEnd(report);
        if (end) await recordCallEnd(ctx.db, 'sandbox', end);
      },
    });
    running.set(ctx.db, s);
    s.catch(() => running.delete(ctx.db));
  }
  return s;
}

export async function stopVoisoSandbox(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const started = running.get(ctx.db);
  running.delete(ctx.db);
  if (started === undefined) return;
  const sandbox = await started.catch(() => null);
  await sandbox?.close();
}
