import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { createSession, destroySession } from '../auth/sessions.ts';
import { viewScope } from '../customers/service.ts';

export interface LoginAsInput {
  staffId: number;
  staffRoleId: number;
  /** The staff member's current session, ended so the browser holds only the customer's. */
  staffSessionId: number;
  customerId: number;
  ip: string;
  userAgent?: string;
}

/**
 * "Login as": a new session for the customer that remembers the staff member as impersonator (back-to-admin
 * turns it into a fresh staff session). One transaction: the customer's state is checked under a row lock,
 * the staff session ends and the audit row is written together with the new session.
 */
export async function loginAsCustomer(db: Db, input: LoginAsInput): Promise<{ token: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select({ id: users.id, roleId: users.roleId, isActive: users.isActive, email: users.email })
      .from(users)
      // A manager reaches only the customers assigned to them; anyone else's id is not found.
      .where(
        and(
          eq(users.id, input.customerId),
          isNull(users.deletedAt),
          viewScope({ id: input.staffId, roleId: input.staffRoleId }, users.id),
        ),
      )
      .for('update');
    // Staff accounts are not reachable through the customer screens: same answer as a missing id.
    if (!c || c.roleId !== 3) throw new AppError('USER_NOT_FOUND');
    if (!c.isActive) throw new AppError('CUSTOMER_INACTIVE');
    const session = await createSession(tx, {
      userId: c.id,
      impersonatorId: input.staffId,
      remember: false,
      ip: input.ip,
      userAgent: input.userAgent,
    });
    await destroySession(tx, input.staffSessionId);
    await writeAudit(tx, {
      actorId: input.staffId,
      targetUserId: c.id,
      action: 'customer.login_as',
      before: null,
      after: { email: c.email },
      ip: input.ip,
    });
    return session;
  });
}
