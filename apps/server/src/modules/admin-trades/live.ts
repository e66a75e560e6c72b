import type { Socket } from 'socket.io';
import { and, inArray, isNull } from 'drizzle-orm';
import { TRADE_PL_EVENT, TRADE_PL_UNWATCH, TRADE_PL_WATCH, TradePlWatch, type TradePlEvent } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { orders } from '../../db/schema.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { floatingPl } from './service.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'risk'>;

/** Roles that open the back office's trade lists (admins every customer's, managers their customers'). */
const TRADE_STAFF = new Set([1, 2]);
/** How often a watched page's figures are sent when they moved (the risk engine itself follows every tick). */
export const TRADE_PL_INTERVAL_MS = 1000;

type Ack = (reply: { ok: boolean; ids: number[] }) => void;

/**
 * The live floating P/L of open trades for the back office's trade lists, read from the risk engine (every
 * instance keeps the same picture of open positions, so whichever one holds the staff member's socket answers).
 * A list emits TRADE_PL_WATCH with the ids of its open trades on screen; the ones the staff member may see (the same
 * scope as the list: a manager's own customers) are sent as TRADE_PL_EVENT on watching and then each second they
 * move. A new watch replaces the last; TRADE_PL_UNWATCH or disconnecting stops it.
 */
export function attachTradesLive(ctx: Ctx): () => void {
  return ctx.realtime.onConnect((socket) => {
    const id = socket.data.userId as number | null;
    const roleId = socket.data.roleId as number | null;
    if (!id || !roleId || !TRADE_STAFF.has(roleId)) return;
    watchTrades(ctx, socket, { id, roleId });
  });
}

function watchTrades(ctx: Ctx, socket: Socket, actor: Pick<StaffActor, 'id' | 'roleId'>): void {
  let watched: number[] = [];
  let sent = new Map<number, string | null>();
  let timer: NodeJS.Timeout | null = null;
  // A later watch wins over an earlier one still asking the database.
  let generation = 0;

  const stop = () => {
    generation++;
    if (timer) clearInterval(timer);
    timer = null;
    watched = [];
    sent = new Map();
  };
  const push = () => {
    const pl: TradePlEvent['pl'] = {};
    let moved = false;
    for (const id of watched) {
      const value = floatingPl(ctx.risk, { id, closeTime: null });
      if (sent.has(id) && sent.get(id) === value) continue;
      sent.set(id, value);
      pl[id] = value;
      moved = true;
    }
    if (moved) socket.emit(TRADE_PL_EVENT, { pl } satisfies TradePlEvent);
  };

  socket.on(TRADE_PL_WATCH, async (payload: unknown, ack?: unknown) => {
    const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => undefined;
    const parsed = TradePlWatch.safeParse(payload);
    if (!parsed.success) return reply({ ok: false, ids: [] });
    stop();
    const mine = generation;
    const asked = [...new Set(parsed.data.ids)];
    try {
      const ids =
        asked.length === 0
          ? []
          : (
              await ctx.db
                .select({ id: orders.id })
                .from(orders)
                .where(
                  and(
                    inArray(orders.id, asked),
                    isNull(orders.closeTime),
                    isNull(orders.voidedAt),
                    customerScope(actor, orders.userId),
                  ),
                )
            ).map((r) => r.id);
      if (mine !== generation) return reply({ ok: false, ids: [] });
      watched = ids;
      reply({ ok: true, ids });
      if (ids.length === 0) return;
      push();
      timer = setInterval(push, TRADE_PL_INTERVAL_MS);
      timer.unref();
    } catch {
      reply({ ok: false, ids: [] });
    }
  });
  socket.on(TRADE_PL_UNWATCH, stop);
  socket.on('disconnect', stop);
}
