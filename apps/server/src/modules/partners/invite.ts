import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PartnerInviteRequest } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { partnerLinks, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { issueTokenRow } from '../auth/tokens.ts';
import { getBranding } from '../settings/service.ts';
import { TREE_LOCK } from './tree.ts';

type Ctx = Pick<AppContext, 'db' | 'jobs'>;

/**
 * POST /affiliate/partner/subpartners: a partner brings a sub-partner of their own. The new affiliate account is
 * placed under the inviter on the inviter's plan (an admin may move it later) and has no usable password: the mailed
 * link sets one, so only the owner of the address ever signs in. A partner not yet on a plan cannot invite (409).
 */
export async function inviteSubPartner(
  ctx: Ctx,
  inviter: StaffActor,
  input: z.output<typeof PartnerInviteRequest>,
): Promise<{ userId: number }> {
  // Hashing is slow on purpose: done before the transaction. Nobody knows this password.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  let userId: number;
  try {
    userId = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
      const [link] = await tx.select().from(partnerLinks).where(eq(partnerLinks.userId, inviter.id));
      if (!link)
        throw new AppError('CONFLICT', 'You are not on a commission plan yet: ask the broker to put you on one first.');
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${input.email})`);
      if (taken) throw new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });
      const [u] = await tx
        .insert(users)
        .values({ fullName: input.fullName, email: input.email, passwordHash, roleId: 4, isEmailVerified: false })
        .returning({ id: users.id });
      await tx
        .insert(partnerLinks)
        .values({ userId: u.id, planId: link.planId, parentId: inviter.id, updatedBy: inviter.id });
      await writeAudit(tx, {
        actorId: inviter.id,
        targetUserId: u.id,
        action: 'partner.invite',
        subjectType: 'partner',
        subjectId: u.id,
        before: null,
        after: { fullName: input.fullName, email: input.email, planId: link.planId, parentId: inviter.id },
        ip: inviter.ip,
      });
      return u.id;
    });
  } catch (err) {
    // Two invitations of one address at once: the case-insensitive unique index decides.
    if (isUniqueViolation(err, 'users_email_unique'))
      throw new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });
    throw err;
  }
  await ctx.jobs.send('mail.partner-invite', { userId, inviterId: inviter.id });
  return { userId };
}

/** The job behind inviteSubPartner: mails the invitee a single-use link that sets their password. */
export async function deliverPartnerInvite(
  ctx: AppContext,
  data: { userId: number; inviterId: number },
  jobId?: string,
): Promise<void> {
  const [invitee] = await ctx.db.select().from(users).where(eq(users.id, data.userId));
  const [inviter] = await ctx.db.select({ fullName: users.fullName }).from(users).where(eq(users.id, data.inviterId));
  if (!invitee || !invitee.isActive || invitee.deletedAt) return;
  if (jobId && !(await ctx.mailer.shouldSend(jobId))) return;
  const { appName } = await getBranding(ctx.db);
  const { id, token } = await issueTokenRow(ctx.db, invitee.id, 'reset_password');
  const link = `${ctx.config.appUrl}/reset-password?token=${token}`;
  const sent = await ctx.mailer.send(
    {
      to: invitee.email,
      subject: `${inviter?.fullName ?? 'A partner'} invites you to partner with ${appName}`,
      text: `Hello ${invitee.fullName},\n\n${inviter?.fullName ?? 'A partner'} has made you a partner of ${appName}. Set your password with this link, then sign in with this email:\n${link}\n\nThe link works once and expires in 1 hour; after that, use "Forgot password" on the sign-in page.\n\n${appName}`,
    },
    { link, tokenId: id },
    jobId,
  );
  if (ctx.mailer.smtpEnabled && !sent.delivered) throw new Error('SMTP refused the mail; the queue retries it');
}
