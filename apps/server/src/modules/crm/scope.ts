import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { leads } from '../../db/schema.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { getSettings, isOn } from '../settings/service.ts';

/**
 * The leads a back-office user may see and touch (docs/decisions.md, CRM): admins and managers every lead (the menu
 * gives managers every CRM list), a sales agent (5) the leads assigned to them, a retention agent (6) the leads they
 * retain, an affiliate (4) the leads they brought. Deleted leads are nobody's. Applied in SQL; anything outside is 404.
 */
export function leadScope(actor: Pick<StaffActor, 'id' | 'roleId'>): SQL {
  const own = (() => {
    switch (actor.roleId) {
      case 1:
      case 2:
        return sql`true`;
      case 4:
        return eq(leads.userId, actor.id);
      case 5:
        return eq(leads.agentId, actor.id);
      case 6:
        return eq(leads.retId, actor.id);
      default:
        return sql`false`;
    }
  })();
  return and(isNull(leads.deletedAt), own)!;
}

export const isAgent = (actor: Pick<StaffActor, 'roleId'>): boolean => actor.roleId === 5 || actor.roleId === 6;

/**
 * True when this viewer gets lead emails and phones masked: sales and retention agents while the site setting
 * "Show Email & Phone in Agent Dashboard" (showUserInfoAgent) is off (back-office §5). Read fresh, never cached.
 */
export async function masksContacts(db: DbOrTx, actor: Pick<StaffActor, 'roleId'>): Promise<boolean> {
  if (!isAgent(actor)) return false;
  const s = await getSettings(db, ['showUserInfoAgent']);
  return !isOn(s.showUserInfoAgent);
}
