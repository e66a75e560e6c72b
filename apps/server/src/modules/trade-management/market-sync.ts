import type { AppContext } from '../../context.ts';

/** Where failures of the after-save work go (the request's logger in routes). */
export type SyncLog = (msg: string, err: unknown) => void;

export const consoleLog: SyncLog = (msg, err) => console.error(msg, err);

/** The part of the app a Trade Management change touches. */
export type TradeCtx = Pick<AppContext, 'db' | 'market' | 'cluster'>;

/** Who is acting, for the audit trail. */
export interface Actor {
  id: number;
  ip: string;
}

/**
 * Makes the running market pick up new API settings or instruments at once: the feed manager re-reads the settings
 * records and the instrument list and restarts only the providers that changed. The change is already committed, so
 * a failure here is logged, not reported to the admin as a failed save (the next reload or restart applies it).
 */
export async function reloadFeeds(ctx: TradeCtx, log: SyncLog): Promise<void> {
  try {
    await ctx.market.feeds?.reload();
  } catch (err) {
    log('reloading the price feeds failed', err);
  }
  // The leader (perhaps another instance) runs the feeds.
  ctx.cluster.bus.publish('cache', { kind: 'feeds' });
}

/** After an instrument change: the in-memory registry (orders, risk engine, dashboard list), then the feeds. */
export async function reloadInstruments(ctx: TradeCtx, log: SyncLog): Promise<void> {
  try {
    await ctx.market.instruments.reload(ctx.db);
  } catch (err) {
    log('reloading the instruments failed', err);
  }
  ctx.cluster.bus.publish('cache', { kind: 'instruments' });
}

/** Shows a secret in the audit trail only by its last characters. */
export function maskSecret(v: string | null | undefined): string | null {
  if (v === null || v === undefined || v === '') return v ?? null;
  return v.length > 8 ? `****${v.slice(-4)}` : '****';
}
