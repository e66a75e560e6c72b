import type { Socket } from 'socket.io';
import { eq } from 'drizzle-orm';
import { isSafeText, type PresenceEvent, type TrackEntry } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { userProfiles } from '../../db/schema.ts';
import { canViewCustomer } from './service.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime'>;

/** Staff roles that open the customer edit screen (and so may watch a customer's page views). */
const WATCHERS = new Set([1, 2, 6]);
/** Page views a customer's browser may report per window; more are dropped (a page view is a navigation). */
const TRACK_LIMIT = 30;
const TRACK_WINDOW_MS = 10_000;

export const watchRoom = (customerId: number) => `watch:${customerId}`;
/** Every customer's sockets: who is online, for the lists' online filter and sort (customer-360/online.ts). */
export const CUSTOMERS_ROOM = 'customers';

/**
 * Customers' presence and page views over the realtime channel.
 *
 * - `presence` {userId, online} goes to admins and to the customer's manager when a customer's socket connects, and
 *   when their last socket closes (the list's online dot follows it).
 * - A customer's browser emits `track` {url} on each navigation; it is relayed as `track:{userId}` {url, time} to the
 *   staff watching that customer.
 * - Staff ask to watch with `track:watch` {userId} (acknowledged with {ok}); the server checks that they may open the
 *   customer, as the edit screen does, before joining them to the customer's watch room. `track:unwatch` leaves it.
 */
export function attachCustomerLive(ctx: Ctx): () => void {
  return ctx.realtime.onConnect((socket) => {
    const userId = socket.data.userId as number | null;
    const roleId = socket.data.roleId as number | null;
    if (!userId || !roleId) return;
    if (roleId === 3) customerSocket(ctx, socket, userId);
    watchRequests(ctx, socket, { id: userId, roleId });
  });
}

async function announce(ctx: Ctx, userId: number, online: boolean): Promise<void> {
  const event: PresenceEvent = { userId, online };
  ctx.realtime.toAdmins('presence', event);
  const [p] = await ctx.db
    .select({ managerId: userProfiles.managerId })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  if (p?.managerId) ctx.realtime.toUser(p.managerId, 'presence', event);
}

function customerSocket(ctx: Ctx, socket: Socket, userId: number): void {
  void socket.join(CUSTOMERS_ROOM);
  void announce(ctx, userId, true).catch(() => undefined);
  socket.on('disconnect', () => {
    void ctx.realtime
      .onlineUsers([userId])
      .then((online) => (online.has(userId) ? undefined : announce(ctx, userId, false)))
      .catch(() => undefined);
  });
  let windowStart = 0;
  let inWindow = 0;
  socket.on('track', (payload: unknown) => {
    const url = (payload as { url?: unknown } | null)?.url;
    if (typeof url !== 'string' || url.length === 0 || url.length > 2000 || !url.startsWith('/') || !isSafeText(url))
      return;
    const now = Date.now();
    if (now - windowStart > TRACK_WINDOW_MS) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > TRACK_LIMIT) return;
    const entry: TrackEntry = { url, time: new Date(now).toISOString() };
    ctx.realtime.toRoom(watchRoom(userId), `track:${userId}`, entry);
  });
}

function watchRequests(ctx: Ctx, socket: Socket, actor: { id: number; roleId: number }): void {
  socket.on('track:watch', async (payload: unknown, ack?: unknown) => {
    const reply = typeof ack === 'function' ? (ack as (r: { ok: boolean }) => void) : () => undefined;
    const customerId = Number((payload as { userId?: unknown } | null)?.userId);
    if (!WATCHERS.has(actor.roleId)) return reply({ ok: false });
    if (!Number.isInteger(customerId) || customerId <= 0 || customerId > 2_147_483_647) return reply({ ok: false });
    try {
      if (!(await canViewCustomer(ctx.db, actor, customerId))) return reply({ ok: false });
      await socket.join(watchRoom(customerId));
      reply({ ok: true });
    } catch {
      reply({ ok: false });
    }
  });
  socket.on('track:unwatch', async (payload: unknown) => {
    const customerId = Number((payload as { userId?: unknown } | null)?.userId);
    if (Number.isInteger(customerId)) await socket.leave(watchRoom(customerId));
  });
}
