import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChangePasswordRequest, NameUpdateRequest, ProfileUpdateRequest } from '@platform/domain';
import type { Db } from '../../db/client.ts';
import { balances, userProfiles, users } from '../../db/schema.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { destroyUserSessions } from '../auth/sessions.ts';

/** PUT /profile/me. The email is not editable here; a phone left out stays as it was. */
export async function updateProfile(
  db: Db,
  userId: number,
  input: z.output<typeof ProfileUpdateRequest>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ fullName: input.fullName }).where(eq(users.id, userId));
    const profile = {
      birthDate: input.birthDate,
      country: input.country,
      city: input.city,
      address: input.address,
      postalCode: input.postalCode,
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
    };
    await tx
      .insert(userProfiles)
      .values({ userId, ...profile })
      .onConflictDoUpdate({ target: userProfiles.userId, set: profile });
  });
}

/** PUT /profile/name: the caller's own name, nothing else. */
export async function updateName(db: Db, userId: number, input: z.output<typeof NameUpdateRequest>): Promise<void> {
  await db.update(users).set({ fullName: input.fullName }).where(eq(users.id, userId));
}

/** PUT /security/password: checks the current password, then ends every other session of the account. */
export async function changePassword(
  db: Db,
  userId: number,
  sessionId: number,
  input: z.output<typeof ChangePasswordRequest>,
): Promise<void> {
  const [u] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u || !(await verifyPassword(u.hash, input.currentPassword)))
    throw new AppError('WRONG_PASSWORD', undefined, { currentPassword: 'Current password is incorrect.' });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await destroyUserSessions(tx, userId, sessionId);
  });
}

/** POST /dashboard/switch-wallet: only one of the caller's own wallets can become active. */
export async function switchWallet(db: Db, userId: number, balanceId: number): Promise<void> {
  const [w] = await db
    .select({ id: balances.id })
    .from(balances)
    .where(and(eq(balances.id, balanceId), eq(balances.userId, userId)))
    .limit(1);
  if (!w) throw new AppError('WALLET_NOT_FOUND');
  await db.update(users).set({ activeBalanceId: w.id }).where(eq(users.id, userId));
}
