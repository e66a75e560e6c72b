/**
 * Price fan-out over Socket.IO: boots the server in this process the way main.ts does (embedded database, the
 * product's realtime layer attached to the HTTP server, the product's market broadcaster batching book ticks
 * every 250 ms), feeds the price book at 4 bursts a second with ~20 changed instruments each, and connects N
 * clients (websocket transport, loopback) from child processes: N - F lean clients that speak the Socket.IO
 * protocol over a plain WebSocket and read only each batch's key, and F full socket.io-client clients that decode
 * every message and check it against what the server sent (fanout-client.ts says why the clients are lean). Per N
 * it prints the delivered `priceUpdate` messages per second and two latencies: emit -> client (the fan-out: from
 * the server's broadcast call to the client's handler) and tick -> client (from the newest tick's price time, so it
 * includes the wait for the next batch), then the same for the full clients alone with the payload check.
 *
 *   node --import tsx bench/fanout.ts [--clients=1000,5000] [--full=5] [--seconds=10] [--warmup=3] [--concurrency=200] [--procs=1]
 *                                     [--instances=1|2] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres] [--redis-url=redis://127.0.0.1:6379]
 * or: npm run fanout -w bench
 *
 * --instances=2 runs the product as a cluster on PostgreSQL and Redis: this process leads (its book's ticks go out on
 * Redis) and a second process follows (fanout-follower.ts). Each step is measured twice, all clients on the leader
 * (one instance), then the clients split evenly between the two, so the two figures print side by side.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { PriceTick } from '@platform/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createMarketBroadcaster } from '../apps/server/src/market/broadcast.ts';
import type { Quote } from '../apps/server/src/market/price-book.ts';
import type { Realtime } from '../apps/server/src/realtime/realtime.ts';
import type { ClientCommand, ClientReply, Emit, GroupReport, MeasureReport } from './fanout-client.ts';
import { eq } from 'drizzle-orm';
import { benchDatabase } from './pg-database.ts';
import type { FollowerCommand, FollowerReply } from './fanout-follower.ts';
import { balances, ledgerEntries, users } from '../apps/server/src/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/auth/sessions.ts';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: process.env.BENCH_CLIENTS ?? '1000,5000' },
    full: { type: 'string', default: process.env.BENCH_FULL ?? '5' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '3' },
    concurrency: { type: 'string', default: process.env.BENCH_CONCURRENCY ?? '200' },
    procs: { type: 'string', default: process.env.BENCH_PROCS },
    instances: { type: 'string', default: process.env.BENCH_INSTANCES ?? '1' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    'redis-url': { type: 'string', default: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});
const INSTANCES = Number(args.instances);
const STEPS = args.clients.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const CONCURRENCY = Number(args.concurrency);
// With two instances, at least one client process per instance.
const PROCS = Number(args.procs ?? (INSTANCES === 2 ? '2' : '1'));
const FULL = Number(args.full);
if (
  ![SECONDS, WARMUP, CONCURRENCY, PROCS, ...STEPS].every((n) => Number.isFinite(n) && n > 0) ||
  !(FULL >= 0 && FULL <= Math.min(...STEPS))
) {
  console.error(
    '--clients (comma-separated), --seconds, --warmup, --concurrency and --procs must be positive numbers; --full at most the fewest clients',
  );
  process.exit(2);
}
if (![1, 2].includes(INSTANCES) || PROCS < INSTANCES) {
  console.error('--instances is 1 or 2, with at least as many client processes (--procs)');
  process.exit(2);
}
const BURST_MS = 250;
const CHANGED_PER_BURST = 20;

// Times compared across processes are wall-clock milliseconds (tick times are Date.now() of the feeding process):
// each process's monotonic clock drifts from the wall clock differently, by tens of ms within seconds under load.
const now = () => Date.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Milliseconds of CPU the whole machine has spent busy since boot (Linux's /proc/stat; null elsewhere), less softirq
 * time, in which the kernel also moves the benchmark's own loopback packets without charging them to its processes.
 * Other processes' share over the window shows a run that had to share the 2 cores with more than the benchmark.
 */
function machineBusyMs(): number | null {
  try {
    // cpu  user nice system idle iowait irq softirq steal ..., in USER_HZ ticks (100 a second)
    const t = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return (t[0] + t[1] + t[2] + t[5] + t[7]) * 10;
  } catch {
    return null;
  }
}

/** A client process: one command at a time, one reply each. */
class ClientProcess {
  private readonly child: ChildProcess = fork(path.join(import.meta.dirname, 'fanout-client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  send(cmd: ClientCommand): Promise<ClientReply> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`client process exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (msg: ClientReply) => {
        this.child.off('exit', onExit);
        if (msg.type === 'error') reject(new Error(msg.error));
        else resolve(msg);
      });
      this.child.send(cmd);
    });
  }
  close(): void {
    this.child.send({ type: 'close' } satisfies ClientCommand);
  }
}

/**
 * The lean clients spread evenly over the client processes; the full ones in the first. Process i connects to
 * urls[i % urls.length] (one url per instance), so clients split evenly between the instances.
 */
class Clients {
  private readonly procs = Array.from({ length: PROCS }, () => new ClientProcess());
  constructor(private readonly urls: string[]) {}
  async connect(total: number): Promise<{ clients: number; ms: number; failed: number; firstError: string | null }> {
    const lean = total - FULL;
    const replies = await Promise.all(
      this.procs.map((p, i) =>
        p.send({
          type: 'connect',
          url: this.urls[i % this.urls.length],
          lean: Math.floor(lean / PROCS) + (i < lean % PROCS ? 1 : 0),
          full: i === 0 ? FULL : 0,
          concurrency: Math.ceil(CONCURRENCY / PROCS),
        }),
      ),
    );
    const ok = replies.flatMap((r) => (r.type === 'connected' ? [r] : []));
    return {
      clients: ok.reduce((s, r) => s + r.clients, 0),
      ms: Math.max(...ok.map((r) => r.ms)),
      failed: ok.reduce((s, r) => s + r.failed, 0),
      firstError: ok.find((r) => r.firstError)?.firstError ?? null,
    };
  }
  async measure(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.send({ type: 'measure' })));
  }
  /** Each process checks what it got against what its instance broadcast. */
  async report(emitsOf: (url: string) => Emit[]): Promise<MeasureReport> {
    const replies = await Promise.all(
      this.procs.map((p, i) => p.send({ type: 'report', emits: emitsOf(this.urls[i % this.urls.length]) })),
    );
    const parts = replies.flatMap((r) => (r.type === 'report' ? [r.report] : []));
    const full = parts.map((r) => r.full);
    return {
      lean: merge(parts.map((r) => r.lean)),
      full: {
        ...merge(full),
        identical: full.reduce((s, r) => s + r.identical, 0),
        different: full.reduce((s, r) => s + r.different, 0),
      },
      cpu: parts.reduce((s, r) => s + r.cpu, 0),
    };
  }
  close(): void {
    for (const p of this.procs) p.close();
  }
}

function merge(groups: GroupReport[]): GroupReport {
  return {
    clients: groups.reduce((s, r) => s + r.clients, 0),
    delivered: groups.reduce((s, r) => s + r.delivered, 0),
    expected: groups.reduce((s, r) => s + r.expected, 0),
    tick: groups.flatMap((r) => r.tick),
    emit: groups.flatMap((r) => r.emit),
  };
}

interface Row {
  /** How many instances served the clients. */
  instances: number;
  report: MeasureReport;
  /** Median and worst duration of one broadcast call, and its median CPU time. */
  emitCall: [number, number, number];
  batches: number;
  serverCpu: number;
  /** Share of one core the whole machine was busy, or null when unknown. */
  machineCpu: number | null;
  loopP99: number;
  /** Order placement times (ms) measured during the window. */
  orders: number[];
}

// --instances=2: a fresh PostgreSQL database for the cluster, dropped at the end.
const cluster = INSTANCES === 2 ? await benchDatabase(args['pg-url'], 'bench_fanout') : null;
const config = loadConfig({
  ...(cluster ? { DATABASE_URL: cluster.url, REDIS_URL: args['redis-url'], CLUSTER_NAME: cluster.name } : {}),
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  MARKET_HOURS: 'open',
  MARKET_FEED: 'false',
  SEED_DEMO: 'false',
  DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
});
const { ctx, database, risk } = await boot(config, { memory: !cluster });
const app = await buildApp({ ctx, logger: false });
ctx.realtime.attach(app.server, ctx.db);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no listening address');
const url = `http://127.0.0.1:${address.port}`;

/** The follower instance (--instances=2), driven over IPC one command at a time. */
const follower = cluster
  ? await (async () => {
      // This process leads: every tick its book applies goes out on Redis, as the leader's market does.
      ctx.market.book.onTicks((changed) => ctx.cluster.bus.publish('prices', changed));
      const child = fork(path.join(import.meta.dirname, 'fanout-follower.ts'), [], {
        execArgv: ['--import', 'tsx'],
        stdio: 'inherit',
        env: { ...process.env, DATABASE_URL: cluster.url, REDIS_URL: args['redis-url'], CLUSTER_NAME: cluster.name },
      });
      const ask = (cmd: FollowerCommand | null): Promise<FollowerReply> =>
        new Promise((resolve, reject) => {
          const onExit = (code: number | null) => reject(new Error(`follower exited with ${code}`));
          child.once('exit', onExit);
          child.once('message', (m: FollowerReply) => {
            child.off('exit', onExit);
            resolve(m);
          });
          if (cmd) child.send(cmd);
        });
      const ready = await ask(null);
      if (ready.type !== 'ready') throw new Error('follower did not start');
      return { url: ready.url, ask, close: () => child.send({ type: 'close' } satisfies FollowerCommand) };
    })()
  : null;

// The product's broadcaster on the product's realtime layer; the wrapper only notes when each batch is handed
// to it (keyed by its newest tick time, which the clients see too) and what it held, for the full clients' check.
let emits: Emit[] | null = null;
/** How long each broadcast call took: the frame is written to every socket inside it. */
let emitCost: number[] = [];
/** CPU time of each broadcast call: what it costs without other processes competing for the cores. */
let emitCpu: number[] = [];
const timedRealtime: Pick<Realtime, 'broadcast'> = {
  broadcast(event, payload, opts) {
    const at = now();
    const started = performance.now();
    const cpu = process.cpuUsage();
    ctx.realtime.broadcast(event, payload, opts);
    if (emits && event === 'priceUpdate') {
      emitCost.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      emitCpu.push((used.user + used.system) / 1000);
      emits.push([Math.max(...(payload as PriceTick[]).map((t) => t.time)), at, JSON.stringify(payload)]);
    }
  },
};
const broadcaster = createMarketBroadcaster({
  book: ctx.market.book,
  realtime: timedRealtime,
  status: () => ctx.market.status(),
});
broadcaster.start();

// A feed at 4 Hz moving 20 random instruments a burst; tick times are unique per burst so they identify a batch.
const names = ctx.market.instruments.list().map((i) => i.name);
let lastTime = 0;
const feed = setInterval(() => {
  const time = Math.max(Date.now(), lastTime + 1);
  lastTime = time;
  const moved: Quote[] = [];
  for (let i = 0; i < CHANGED_PER_BURST; i++) {
    const name = names[Math.floor(Math.random() * names.length)];
    const q = ctx.market.book.get(name);
    if (!q) continue;
    const bid = Number((q.bid * (1 + (Math.random() - 0.5) * 1e-4)).toPrecision(8));
    const spread = q.ask - q.bid;
    moved.push({ name, bid, ask: bid + spread, closeoutBid: bid - spread / 10, closeoutAsk: bid + spread * 1.1, time });
  }
  ctx.market.book.apply(moved);
}, BURST_MS);

/**
 * Orders placed and closed while the broadcasts run, by a demo-wallet trader over the app's HTTP handling: what a
 * trader feels of the fan-out. The same probe with no clients connected is the baseline of this run.
 */
const trader = await (async () => {
  const [u] = await ctx.db
    .insert(users)
    .values({
      fullName: 'Probe Trader',
      email: 'probe@bench.test',
      passwordHash: 'x',
      roleId: 3,
      isEmailVerified: true,
    })
    .returning({ id: users.id });
  const [w] = await ctx.db
    .insert(balances)
    .values({ userId: u.id, mode: 'demo', currency: 'USD', balance: '1000000' })
    .returning({ id: balances.id });
  await ctx.db
    .insert(ledgerEntries)
    .values({ balanceId: w.id, kind: 'seed', amount: '1000000', balanceAfter: '1000000' });
  await ctx.db.update(users).set({ activeBalanceId: w.id }).where(eq(users.id, u.id));
  const { token } = await createSession(ctx.db, { userId: u.id, remember: false, ip: '127.0.0.1' });
  return `${SESSION_COOKIE}=${token}`;
})();
async function probeOrders(ms: number): Promise<number[]> {
  const took: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const at = performance.now();
    const placed = await app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie: trader },
      payload: { type: 'buy', instrument: 'EUR_USD', amount: '1000' },
    });
    took.push(performance.now() - at);
    if (placed.statusCode !== 200) throw new Error(`probe order refused: ${placed.statusCode} ${placed.body}`);
    await app.inject({
      method: 'POST',
      url: '/api/dashboard/orders/close',
      headers: { cookie: trader },
      payload: { orderId: placed.json().order.id },
    });
    await sleep(20);
  }
  return took;
}
const baselineOrders = await probeOrders(3000);

const rows: Row[] = [];
// One instance first (every client on this process), then, with --instances=2, the clients split between both.
const modes: string[][] = follower ? [[url], [url, follower.url]] : [[url]];
try {
  for (const urls of modes) {
    const clients = new Clients(urls);
    try {
      for (const n of STEPS) {
        const c = await clients.connect(n);
        console.log(
          `${c.clients} clients connected to ${urls.length} instance(s) (${(c.ms / 1000).toFixed(1)} s${c.failed ? `, ${c.failed} failed: ${c.firstError}` : ''}); warming up ${WARMUP} s, measuring ${SECONDS} s`,
        );
        await sleep(WARMUP * 1000);

        await clients.measure();
        if (urls.length > 1) await follower!.ask({ type: 'measure' });
        const loop = monitorEventLoopDelay({ resolution: 10 });
        loop.enable();
        const cpu = process.cpuUsage();
        const busy = machineBusyMs();
        const started = performance.now();
        emits = [];
        emitCost = [];
        emitCpu = [];
        const orderTimes = await probeOrders(SECONDS * 1000);
        const window = emits;
        emits = null;
        const serverCpu = process.cpuUsage(cpu);
        const busyAfter = machineBusyMs();
        const wall = performance.now() - started;
        loop.disable();
        // The follower's window ends with this one (its batches after it are not expected of its clients).
        const followerEmits = urls.length > 1 ? await follower!.ask({ type: 'report' }) : null;
        await sleep(1000); // the last batches of the window are still on their way
        const r = await clients.report((u) =>
          u === url ? window : followerEmits?.type === 'report' ? followerEmits.emits : [],
        );
        const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
        rows.push({
          instances: urls.length,
          report: r,
          emitCall: [median(emitCost), Math.max(...emitCost), median(emitCpu)],
          batches: window.length / SECONDS,
          serverCpu: (serverCpu.user + serverCpu.system) / 1000 / wall,
          machineCpu: busy === null || busyAfter === null ? null : (busyAfter - busy) / wall,
          loopP99: loop.percentile(99) / 1e6,
          orders: orderTimes,
        });
      }
    } finally {
      clients.close();
      await sleep(500);
    }
  }
} finally {
  clearInterval(feed);
  broadcaster.stop();
  follower?.close();
  await risk.stop();
  await ctx.realtime.close();
  await app.close();
  await database.close();
  await ctx.cluster.bus.close();
  await cluster?.drop();
}

const percentile = (xs: number[], p: number) => {
  const sorted = Float64Array.from(xs).sort();
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
};
const f = (v: number, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const pct = (g: GroupReport) => f((100 * g.delivered) / Math.max(1, g.expected), 2);
const latencies = (g: GroupReport) => [
  `${f(percentile(g.emit, 0.5))} / ${f(percentile(g.emit, 0.99))} / ${f(percentile(g.emit, 1))}`,
  `${f(percentile(g.tick, 0.5))} / ${f(percentile(g.tick, 0.99))}`,
];
const table = (head: string[], body: string[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(head));
  for (const b of body) console.log(line(b));
};

console.log(
  `\nPrice fan-out: ${CHANGED_PER_BURST} instruments per burst at ${1000 / BURST_MS} Hz, batched every 250 ms; clients in ${PROCS} process(es), ` +
    `${FULL} of them full socket.io-client, the rest lean (fanout-client.ts); ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`,
);
console.log('\nAll clients (CPU figures are shares of one core; the machine has ' + os.cpus().length + '):');
table(
  [
    'instances',
    'clients',
    'batches/s',
    'msgs/s delivered',
    'delivered %',
    'emit->client p50 / p99 / max ms',
    'tick->client p50 / p99 ms',
    'emit call p50 / max / CPU ms',
    'emit CPU µs per client',
    'server CPU',
    'loop delay p99 ms',
    'clients CPU',
    'other processes CPU',
  ],
  rows.map(({ instances, report: r, emitCall, batches, serverCpu, machineCpu, loopP99 }) => {
    const all = merge([r.lean, r.full]);
    return [
      String(instances),
      String(all.clients),
      f(batches, 2),
      f(all.delivered / SECONDS, 0),
      pct(all),
      ...latencies(all),
      `${f(emitCall[0])} / ${f(emitCall[1])} / ${f(emitCall[2])}`,
      f((1000 * emitCall[2]) / all.clients, 1),
      `${f(serverCpu * 100, 0)}%`,
      f(loopP99),
      `${f(r.cpu * 100, 0)}%`,
      machineCpu === null ? '-' : `${f(Math.max(0, machineCpu - serverCpu - r.cpu) * 100, 0)}%`,
    ];
  }),
);
console.log(
  '\nOrders placed while broadcasting (HTTP handling in the broadcasting process, demo wallet), beside the same probe with no clients:',
);
table(
  ['clients', 'orders', 'place p50 / p99 / max ms', 'baseline p50 / p99 / max ms (no clients)'],
  rows.map(({ report: r, orders }) => {
    const stats = (xs: number[]) => `${f(percentile(xs, 0.5))} / ${f(percentile(xs, 0.99))} / ${f(percentile(xs, 1))}`;
    return [String(merge([r.lean, r.full]).clients), String(orders.length), stats(orders), stats(baselineOrders)];
  }),
);
console.log('\nOf which full socket.io-client clients, every payload decoded and compared with the one broadcast:');
table(
  [
    'clients',
    'of',
    'delivered %',
    'payloads identical / different',
    'emit->client p50 / p99 / max ms',
    'tick->client p50 / p99 ms',
  ],
  rows.map(({ report: { lean, full } }) => [
    String(full.clients),
    String(full.clients + lean.clients),
    pct(full),
    `${full.identical} / ${full.different}`,
    ...latencies(full),
  ]),
);
process.exit(0);
