import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { emitNotification, insertNotification } from '../notifications/service.ts';
import { limitFor, limitsOf } from './limits.ts';

type Ctx = Pick<AppContext, 'db' | 'risk' | 'market' | 'realtime' | 'cluster'>;

/**
 * Tells the admins when the clients' net volume on an instrument (real wallets: the house's money) reaches the warn
 * percent of its net limit: once per crossing, again only after it fell back under. Every instance follows the book;
 * only the leader tells, so one crossing is one notification. The state is in memory: a new leader that finds a net
 * already above tells once more.
 */
export function watchLimitWarnings(ctx: Ctx): () => void {
  const warned = new Set<number>();
  let chain: Promise<void> = Promise.resolve();
  return ctx.risk.onNetChange((instrumentId, mode, net) => {
    if (mode !== 'real') return;
    // In order, so a quick open and close are judged in the order they happened.
    chain = chain
      .then(() => judge(ctx, warned, instrumentId, net))
      .catch((err: unknown) => console.error('risk limit warning failed', err));
  });
}

async function judge(ctx: Ctx, warned: Set<number>, instrumentId: number, net: number): Promise<void> {
  const instrument = ctx.market.instruments.byIdOf(instrumentId);
  if (!instrument) return;
  const limit = limitFor(await limitsOf(ctx.db), instrument);
  const max = limit?.maxNet ?? null;
  if (!limit || max === null) {
    warned.delete(instrumentId);
    return;
  }
  const level = (max * limit.warnPercent) / 100;
  if (Math.abs(net) < level) {
    warned.delete(instrumentId);
    return;
  }
  if (warned.has(instrumentId) || !ctx.cluster.leadership.isLeader) return;
  warned.add(instrumentId);
  const name = instrument.name.replace('_', '/');
  const side = net > 0 ? 'long' : 'short';
  const percent = ((Math.abs(net) / max) * 100).toFixed(1);
  const admins = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.roleId, 1), eq(users.isActive, true), isNull(users.deletedAt)));
  for (const a of admins) {
    const dto = await insertNotification(ctx.db, a.id, {
      title: 'Exposure limit near',
      description: `Clients are net ${side} ${Math.abs(net).toLocaleString('en-US', { maximumFractionDigits: 8 })} on ${name}: ${percent} % of the limit of ${max.toLocaleString('en-US')} (warning at ${limit.warnPercent} %).`,
      url: '/admin/risk',
    });
    emitNotification(ctx, a.id, dto);
  }
}
