import { and, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { mailOutbox, notifications, priceAlerts, users } from '../../db/schema.ts';
import type { JobPayloads } from '../../jobs/queue.ts';
import { emitNotification, notificationDto } from '../notifications/service.ts';
import { getBranding } from '../settings/service.ts';
import type { AlertEntry } from './alert-book.ts';
import type { AlertRow } from './hooks.ts';
import { instrumentLabel } from './service.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'jobs'>;
export type AlertMail = JobPayloads['mail.price-alert'];

/** How far back a new leader looks for fired alerts whose mail was never queued (a crash right after the fire). */
const MAIL_RECOVERY_WINDOW = '1 hour';

/**
 * The mail's key in the outbox: one mail per firing. A re-armed alert that fires again has another fired_at, hence
 * another mail; a retried job, or the same firing queued twice, finds the mail already there and sends nothing.
 */
export const alertMailKey = (alertId: number, firedAt: Date): string => `price-alert:${alertId}:${firedAt.getTime()}`;

const mailOf = (row: AlertRow): AlertMail => ({
  alertId: row.id,
  userId: row.userId,
  instrument: row.instrument,
  side: row.side as AlertMail['side'],
  condition: row.condition as AlertMail['condition'],
  price: row.price,
  firedPrice: row.firedPrice ?? '',
  firedAt: row.firedAt!.toISOString(),
});

/**
 * Fires the alerts of one instrument a tick crossed, each at most once: one conditional update takes only the rows
 * still active whose definition (possibly edited since the watcher read it) this quote meets, and the clients'
 * notifications are written in the same transaction. Then, after the commit: each `user:{id}` notification (toast),
 * `alertsChanged`, and the mail jobs of those who asked for email. Returns the rows fired; an alert missing from them
 * had nothing to fire (fired, edited or deleted meanwhile).
 */
export async function fireAlerts(
  ctx: Ctx,
  entries: readonly AlertEntry[],
  quote: { bid: number; ask: number },
  digits: number,
): Promise<AlertRow[]> {
  if (entries.length === 0) return [];
  const bid = quote.bid.toFixed(digits);
  const ask = quote.ask.toFixed(digits);
  const observed = sql`(case when ${priceAlerts.side} = 'bid' then ${bid}::numeric else ${ask}::numeric end)`;
  const ids = entries.map((e) => e.id);
  const fired = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(priceAlerts)
      // Milliseconds: the time a JS Date holds exactly, so the mail key built from it is the same on every read.
      .set({ firedAt: sql`date_trunc('milliseconds', now())`, firedPrice: observed })
      .where(
        and(
          inArray(priceAlerts.id, ids),
          isNull(priceAlerts.firedAt),
          sql`case when ${priceAlerts.condition} = 'above' then ${priceAlerts.price} <= ${observed} else ${priceAlerts.price} >= ${observed} end`,
        ),
      )
      .returning();
    if (rows.length === 0) return [];
    const notices = await tx
      .insert(notifications)
      .values(rows.map((r) => ({ userId: r.userId, ...noticeOf(r, digits) })))
      .returning();
    return rows.map((row, i) => ({ row, notice: notificationDto(notices[i]) }));
  });
  for (const { row, notice } of fired) {
    emitNotification(ctx, row.userId, notice);
    ctx.realtime.toUser(row.userId, 'alertsChanged', { alertId: row.id, fired: true });
  }
  // The fire stands even if queueing fails; the next leader's start queues the mail it finds missing.
  for (const { row } of fired)
    if (row.email)
      await ctx.jobs
        .send('mail.price-alert', mailOf(row))
        .catch((err: unknown) => console.error(`price alert ${row.id}: queueing its mail failed`, err));
  return fired.map((f) => f.row);
}

/** What the client's notification says: the instrument, the price that met the alert, and the alert. */
function noticeOf(row: AlertRow, digits: number): { title: string; description: string; url: string } {
  const side = row.side === 'bid' ? 'Bid' : 'Ask';
  const moved = row.condition === 'above' ? 'rose to' : 'fell to';
  return {
    title: `Price alert: ${instrumentLabel(row.instrument)}`,
    description: `${side} ${moved} ${dec(row.firedPrice ?? '0').toFixed(digits)} (your alert: ${row.condition} ${dec(row.price).toFixed(digits)}).`,
    url: '/dashboard',
  };
}

/**
 * Queues the mail of alerts fired (with email asked) in the last hour whose mail is not in the outbox: the instance
 * that fired them may have stopped between the commit and queueing the job. A job still waiting for its turn may be
 * queued a second time here; the outbox key makes the second one send nothing.
 */
export async function queueMissedAlertMail(ctx: Ctx): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(priceAlerts)
    .where(
      and(
        eq(priceAlerts.email, true),
        isNotNull(priceAlerts.firedAt),
        gt(priceAlerts.firedAt, sql`now() - ${MAIL_RECOVERY_WINDOW}::interval`),
      ),
    );
  if (rows.length === 0) return 0;
  const keys = rows.map((r) => alertMailKey(r.id, r.firedAt!));
  const sent = new Set(
    (await ctx.db.select({ key: mailOutbox.jobId }).from(mailOutbox).where(inArray(mailOutbox.jobId, keys))).map(
      (r) => r.key,
    ),
  );
  let queued = 0;
  for (const r of rows)
    if (!sent.has(alertMailKey(r.id, r.firedAt!))) {
      await ctx.jobs.send('mail.price-alert', mailOf(r));
      queued++;
    }
  return queued;
}

/** The `mail.price-alert` job: tells the client by email which level was crossed and at what price. */
export async function deliverAlertMail(ctx: Pick<AppContext, 'db' | 'mailer'>, m: AlertMail): Promise<void> {
  const key = alertMailKey(m.alertId, new Date(m.firedAt));
  if (!(await ctx.mailer.shouldSend(key))) return;
  const [user] = await ctx.db.select().from(users).where(eq(users.id, m.userId)).limit(1);
  if (!user || user.deletedAt) return;
  const { appName } = await getBranding(ctx.db);
  const label = instrumentLabel(m.instrument);
  const side = m.side === 'bid' ? 'bid' : 'ask';
  const level = dec(m.price).toFixed();
  const firedPrice = dec(m.firedPrice).toFixed();
  const sent = await ctx.mailer.send(
    {
      to: user.email,
      subject: `Price alert: ${label} ${side} ${m.condition} ${level}`,
      text: `Hello ${user.fullName},\n\nYour price alert on ${label} fired: the ${side} ${m.condition === 'above' ? 'rose to' : 'fell to'} ${firedPrice} at ${m.firedAt.replace('T', ' ').slice(0, 19)} UTC (your level: ${m.condition} ${level}).\n\nThe alert has fired once and now rests; edit it in the terminal to arm it again.\n\n${appName}`,
    },
    undefined,
    key,
  );
  // SMTP refused it: the queue retries (the outbox row under the same key is replaced, never doubled).
  if (ctx.mailer.smtpEnabled && !sent.delivered) throw new Error('SMTP refused the mail; the queue retries it');
}
