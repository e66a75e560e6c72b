import type { FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { authOf } from './http.ts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A staff member acting in the back office. */
export interface StaffActor {
  id: number;
  roleId: number;
  ip: string;
}

/** The staff member making a back-office request. */
export function staffOf(req: FastifyRequest): StaffActor {
  const { user } = authOf(req);
  return { id: user.id, roleId: user.roleId, ip: req.ip };
}

/**
 * The customers a staff member may see and act on, as a condition on a user id column: admins see everyone, a
 * manager the customers assigned to them (user_profiles.manager_id). Applied in SQL, so a missing filter cannot
 * leak rows; anything outside the scope is answered as not found.
 */
export function customerScope(actor: Pick<StaffActor, 'id' | 'roleId'>, userIdColumn: AnyPgColumn): SQL {
  if (actor.roleId === 1) return sql`true`;
  if (actor.roleId === 2)
    return sql`exists (select 1 from user_profiles sp where sp.user_id = ${userIdColumn} and sp.manager_id = ${actor.id})`;
  return sql`false`;
}
