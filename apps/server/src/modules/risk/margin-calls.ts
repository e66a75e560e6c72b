import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { balances, users } from '../../db/schema.ts';
import type { JobPayloads } from '../../jobs/queue.ts';
import { notify } from '../notifications/service.ts';
import { getBranding } from '../settings/service.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'jobs'>;
export type MarginCallMail = JobPayloads['mail.margin-call'];

/** What the engine knew of the wallet when its margin level fell to the call level. */
export interface MarginCallFacts {
  walletId: number;
  marginLevel: number;
  equity: number;
  callLevel: number;
  stopoutLevel: number;
}

/** One mail per call: a re-armed call that fires again has another time, hence another mail. */
export const marginCallMailKey = (walletId: number, calledAt: Date): string =>
  `margin-call:${walletId}:${calledAt.getTime()}`;

/**
 * A wallet's margin level fell to its plan's margin-call level (the leader's risk engine decided it). Recorded once
 * per crossing by a conditional update of `balances.margin_call_at` (a restart, a takeover or a second leader finds
 * it set and tells nobody again); then the client gets a notification (toast), a `marginCall` event for the top bar,
 * and an email through the queue.
 */
export async function marginCalled(ctx: Ctx, f: MarginCallFacts): Promise<boolean> {
  const [row] = await ctx.db
    .update(balances)
    .set({ marginCallAt: sql`date_trunc('milliseconds', now())` })
    .where(and(eq(balances.id, f.walletId), isNull(balances.marginCallAt)))
    .returning({
      userId: balances.userId,
      currency: balances.currency,
      mode: balances.mode,
      at: balances.marginCallAt,
    });
  if (!row?.at) return false;
  const level = f.marginLevel.toFixed(2);
  await notify(ctx, row.userId, {
    title: 'Margin call',
    description: `The margin level of your ${row.mode} ${row.currency} wallet fell to ${level} % (margin call at ${f.callLevel} %). Deposit funds or reduce your positions: at ${f.stopoutLevel} % positions are closed automatically.`,
    url: '/dashboard',
  });
  ctx.realtime.toUser(row.userId, 'marginCall', { balanceId: f.walletId, marginLevel: Number(level), called: true });
  await ctx.jobs
    .send('mail.margin-call', {
      walletId: f.walletId,
      userId: row.userId,
      calledAt: row.at.toISOString(),
      marginLevel: level,
      callLevel: f.callLevel,
      stopoutLevel: f.stopoutLevel,
    })
    .catch((err: unknown) => console.error(`margin call of wallet ${f.walletId}: queueing its mail failed`, err));
  return true;
}

/** The margin level recovered past the call level plus its re-arm points: the next fall calls again. */
export async function marginCallRearmed(ctx: Ctx, walletId: number): Promise<void> {
  const [row] = await ctx.db
    .update(balances)
    .set({ marginCallAt: null })
    .where(and(eq(balances.id, walletId), isNotNull(balances.marginCallAt)))
    .returning({ userId: balances.userId });
  if (row) ctx.realtime.toUser(row.userId, 'marginCall', { balanceId: walletId, called: false });
}

/** The `mail.margin-call` job: the client is told by email, once per call. */
export async function deliverMarginCallMail(ctx: Pick<AppContext, 'db' | 'mailer'>, m: MarginCallMail): Promise<void> {
  const key = marginCallMailKey(m.walletId, new Date(m.calledAt));
  if (!(await ctx.mailer.shouldSend(key))) return;
  const [user] = await ctx.db.select().from(users).where(eq(users.id, m.userId)).limit(1);
  if (!user || user.deletedAt) return;
  const { appName } = await getBranding(ctx.db);
  const sent = await ctx.mailer.send(
    {
      to: user.email,
      subject: `Margin call: your margin level is ${m.marginLevel} %`,
      text: `Hello ${user.fullName},\n\nAt ${m.calledAt.replace('T', ' ').slice(0, 19)} UTC the margin level of your wallet #${m.walletId} fell to ${m.marginLevel} %, at or below the margin call level of ${m.callLevel} %.\n\nIf it falls to ${m.stopoutLevel} %, your positions are closed automatically, the largest loss first. Deposit funds or reduce your positions to avoid it.\n\n${appName}`,
    },
    undefined,
    key,
  );
  if (ctx.mailer.smtpEnabled && !sent.delivered) throw new Error('SMTP refused the mail; the queue retries it');
}
