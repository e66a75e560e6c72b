import { deliverMarginCallMail } from '../modules/risk/margin-calls.ts';
import { lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { sessions } from '../db/schema.ts';
import { deliverResetLink, deliverVerificationMail } from '../modules/auth/service.ts';
import { processStoredCallback, sweepStrandedCallbacks } from '../modules/payments/callbacks.ts';
import { runLeadImport } from '../modules/crm/lead-imports.ts';
import { deliverAlertMail } from '../modules/alerts/fire.ts';
import { runDueRollovers } from '../modules/rollover/service.ts';
import { remindTask, sweepDueTasks } from '../modules/crm/tasks.ts';
import { storeDailyCheckpoint } from '../modules/records/checkpoints.ts';
import { accrueDeals } from '../modules/partners/accrual.ts';
import { connectPartnerHook } from '../modules/partners/hook.ts';
import { sweepPartnerAccruals } from '../modules/partners/sweep.ts';
import { deliverPartnerInvite } from '../modules/partners/invite.ts';
import type { JobHandlers } from './queue.ts';

/** What each background job does (jobs/queue.ts names them). A handler that throws is retried later. */
export function jobHandlers(ctx: AppContext): JobHandlers {
  connectPartnerHook(ctx.db, ctx.jobs);
  return {
    // Keyed by the job: a retry after a crash never mails twice (integrations/mail.ts).
    'mail.verify-email': ({ userId }, job) => deliverVerificationMail(ctx, userId, job.id),
    'mail.reset-password': ({ email }, job) => deliverResetLink(ctx, email, job.id),
    'mail.partner-invite': (data, job) => deliverPartnerInvite(ctx, data, job.id),
    'maintenance.sessions': async () => {
      await ctx.db.delete(sessions).where(lt(sessions.expiresAt, sql`now() - interval '1 day'`));
    },
    'payments.callback': async ({ callbackId }) => {
      await processStoredCallback(ctx, callbackId);
    },
    'payments.sweep': async () => {
      await sweepStrandedCallbacks(ctx);
    },
    'crm.import-leads': ({ importId }) => runLeadImport(ctx, importId),
    // Keyed by the firing (alert and time), not the job: the same firing queued twice mails once.
    'mail.price-alert': (mail) => deliverAlertMail(ctx, mail),
    // Keyed by the call (wallet and time): the same call queued twice mails once.
    'mail.margin-call': (mail) => deliverMarginCallMail(ctx, mail),
    // Keyed by the day: the unique index keeps one checkpoint a day, whichever instance or retry comes first.
    'records.checkpoint': async () => {
      await storeDailyCheckpoint(ctx.db, ctx.config.RECORDS_SIGNING_KEY);
    },
    // Keyed by position and trading date: a re-run, a retry or a second instance charges nothing twice.
    'rollover.due': async () => {
      await runDueRollovers(ctx);
    },
    // Keyed by the task: one conditional update sends each reminder once, whichever job or instance comes first.
    'crm.task-due': async ({ taskId }) => {
      await remindTask(ctx, taskId);
    },
    'crm.tasks-sweep': async () => {
      await sweepDueTasks(ctx);
    },
    // Keyed by deal, level and kind: a re-run, a retry or a second instance credits nothing twice.
    'partners.accrue': async ({ dealIds }) => {
      await accrueDeals(ctx, dealIds);
    },
    'partners.sweep': async () => {
      await sweepPartnerAccruals(ctx);
    },
  };
}
