import type { AppContext } from '../../context.ts';
import { CUSTOMERS_ROOM } from '../customers/live.ts';

/**
 * Every customer online now (a socket open on any instance): the same presence as the lists' online dot, asked of
 * the realtime rooms once per list request that filters or sorts by it. Online customers are a small share of all
 * of them, so the lists take them as one array parameter.
 */
export async function onlineCustomerIds(ctx: Pick<AppContext, 'realtime'>): Promise<number[]> {
  return [...(await ctx.realtime.usersInRoom(CUSTOMERS_ROOM))].sort((a, b) => a - b);
}
