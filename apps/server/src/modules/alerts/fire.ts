import { and, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { mailOutbox, priceAlerts, users } from '../../db/schema.ts';
import type { JobPayloads } from '../../jobs/queue.ts';
import { emitNotification, insertNotification } from '../notifications/service.ts';
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
 * Fires one alert the watcher saw crossed, at most once: the conditional update takes only a row that is still
 * active and whose definition (possibly edited since the watcher read it) this quote meets, and the client's
 * notification is written in the same transaction. Then, after the commit: the `user:{id}` notification (toast),
 * `alertsChanged`, and the mail job when the client asked for email. Returns the fired row, or null when there was
 * nothing to fire (fired, edited or deleted meanwhile).
 */
export async function fireAlert(
  ctx: Ctx,
  entry: AlertEntry,
  quote: { bid: number; ask: number },
  digits: number,
): Promise<AlertRow | null> {
  const bid = quote.bid.toFixed(digits);
  const ask = quote.ask.toFixed(digits);
  const observed = sql`(case when ${priceAlerts.side} = 'bid' then ${bid}::numeric else ${ask}::numeric end)`;
  const fired = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(priceAlerts)
      // Milliseconds: the time a JS Date holds exactly, so the mail key built from it is the same on every read.
      .set({ firedAt: sql`date_trunc('milliseconds', now())`, firedPrice: observed })
      .where(
        and(
          eq(priceAlerts.id, entry.id),
          isNull(priceAlerts.firedAt),
          sql`case when ${priceAlerts.condition} = 'above' then ${priceAlerts.price} <= ${observed} else ${priceAlerts.price} >= ${observed} end`,
        ),
      )
      .returning();
    if (!row) return null;
    const label = instrumentLabel(row.instrument);
    const side = row.side === 'bid' ? 'Bid' : 'Ask';
    const moved = row.condition === 'above' ? 'rose to' : 'fell to';
    const notice = await insertNotification(tx, row.userId, {
      title: `Price alert: ${label}`,
      description: `${side} ${moved} ${dec(row.firedPrice!).toFixed(digits)} (your alert: ${row.condition} ${dec(row.price).toFixed(digits)}).`,
      url: '/dashboard',
    });
    return { row, notice };
  });
  if (!fired) return null;
  const { row, notice } = fired;
  emitNotification(ctx, row.userId, notice);
  ctx.realtime.toUser(row.userId, 'alertsChanged', { alertId: row.id, fired: true });
  // The fire stands even if queueing fails; the next leader's start queues the mail it finds missing.
  if (row.email)
    await ctx.jobs
      .send('mail.price-alert', mailOf(row))
      .catch((err: unknown) => console.error(`price alert ${row.id}: queueing its mail failed`, err));
  return row;
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
