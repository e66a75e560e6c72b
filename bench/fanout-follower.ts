/**
 * The second instance of `fanout.ts --instances=2`: the product booted as a follower on the same PostgreSQL and Redis
 * (no feeds of its own), applying the prices the first instance publishes on Redis to its own book and broadcasting
 * them to its own clients with the product's broadcaster, exactly as a follower instance does. It notes each batch
 * it hands to the realtime layer (keyed by its newest tick time) during a measuring window, for the clients' check.
 */
import os from 'node:os';
import path from 'node:path';
import type { PriceTick } from '@platform/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createMarketBroadcaster } from '../apps/server/src/market/broadcast.ts';
import type { Quote } from '../apps/server/src/market/price-book.ts';
import type { Realtime } from '../apps/server/src/realtime/realtime.ts';
import type { Emit } from './fanout-client.ts';

export type FollowerCommand = { type: 'measure' } | { type: 'report' } | { type: 'close' };
export type FollowerReply = { type: 'ready'; url: string } | { type: 'measuring' } | { type: 'report'; emits: Emit[] };

// Times compared across processes are wall-clock milliseconds (tick times are Date.now() of the feeding process):
// each process's monotonic clock drifts from the wall clock differently, by tens of ms within seconds under load.
const now = () => Date.now();
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  MARKET_HOURS: 'open',
  MARKET_FEED: 'false',
  SEED_DEMO: 'false',
  DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: process.env.REDIS_URL,
  CLUSTER_NAME: process.env.CLUSTER_NAME,
});
const { ctx, database, risk } = await boot(config);
const app = await buildApp({ ctx, logger: false });
ctx.realtime.attach(app.server, ctx.db);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no listening address');

ctx.cluster.bus.subscribe('prices', (quotes) => ctx.market.book.apply(quotes as Quote[]));
let emits: Emit[] | null = null;
const recording: Pick<Realtime, 'broadcast'> = {
  broadcast(event, payload, opts) {
    const at = now();
    ctx.realtime.broadcast(event, payload, opts);
    if (emits && event === 'priceUpdate')
      emits.push([Math.max(...(payload as PriceTick[]).map((t) => t.time)), at, JSON.stringify(payload)]);
  },
};
const broadcaster = createMarketBroadcaster({
  book: ctx.market.book,
  realtime: recording,
  status: () => ctx.market.status(),
});
broadcaster.start();

const reply = (msg: FollowerReply) => process.send?.(msg);
process.on('message', (cmd: FollowerCommand) => {
  if (cmd.type === 'measure') {
    emits = [];
    reply({ type: 'measuring' });
  } else if (cmd.type === 'report') {
    reply({ type: 'report', emits: emits ?? [] });
    emits = null;
  } else {
    broadcaster.stop();
    void (async () => {
      await risk.stop();
      await ctx.realtime.close();
      await app.close();
      await ctx.cluster.bus.close();
      await database.close();
      process.exit(0);
    })();
  }
});
reply({ type: 'ready', url: `http://127.0.0.1:${address.port}` });
