import { RolloverRunRequest, RolloverRunResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { writeAudit } from '../../lib/audit.ts';
import { fieldError } from '../../lib/errors.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf, type StaffActor } from '../../lib/staff-scope.ts';
import { addDays, localDateOf } from './clock.ts';
import { runRolloverNow } from './service.ts';

/** How far from today an admin may run a trading date's rollover. */
const RUN_WINDOW_DAYS = 366;

/**
 * "Run rollover now" (admins, audited): the trading date's rollover at once, for demonstrations, tests that cross a
 * rollover and a date the schedule missed. Positions it charged already are never charged again.
 */
export async function adminRunRollover(
  ctx: Pick<AppContext, 'db' | 'risk' | 'dbKind'>,
  actor: StaffActor,
  tradingDate: string,
  now = new Date(),
): Promise<RolloverRunResponse> {
  const today = localDateOf(now, 'UTC');
  if (tradingDate < addDays(today, -RUN_WINDOW_DAYS) || tradingDate > addDays(today, RUN_WINDOW_DAYS))
    throw fieldError('tradingDate', 'Choose a trading date within a year of today');
  const { before, result } = await runRolloverNow(ctx, tradingDate, { now, actorId: actor.id });
  const answer = {
    tradingDate,
    cutoff: result.cutoff.toISOString(),
    charged: result.charged,
    chargedTotal: result.chargedTotal,
    finished: result.finished,
  };
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: null,
    action: 'rollover.run',
    subjectType: 'rollover',
    before: before
      ? {
          tradingDate,
          cutoff: before.cutoff.toISOString(),
          charged: before.charged,
          finished: before.finishedAt !== null,
        }
      : null,
    after: answer,
    ip: actor.ip,
  });
  const message =
    result.charged === 0
      ? `Rollover of ${tradingDate} run: no position to charge`
      : `Rollover of ${tradingDate} run: ${result.charged} position${result.charged === 1 ? '' : 's'} charged or credited`;
  return { message, ...answer };
}

export const rolloverRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  app.post(
    '/admin/rollover/run',
    {
      config: { access: [1] },
      schema: { tags: ['rollover'], body: RolloverRunRequest, response: { 200: RolloverRunResponse } },
    },
    async (req) => adminRunRollover(ctx, staffOf(req), req.body.tradingDate.trim()),
  );
};
