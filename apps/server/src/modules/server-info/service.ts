import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { ServerInfoDto } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { registry } from '../../lib/metrics.ts';

/** CPU time of all cores at the previous reading: usage is the busy share between two readings. */
let previous: { idle: number; total: number } | null = null;
const LOOP_RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loop.enable();

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
  }
  return { idle, total };
}

/** Busy share of all cores since the previous call (the first call measures over 200 ms). */
async function cpuUsage(): Promise<number> {
  if (!previous) {
    previous = cpuTimes();
    await new Promise((r) => setTimeout(r, 200));
  }
  const now = cpuTimes();
  const total = now.total - previous.total;
  const busy = total - (now.idle - previous.idle);
  previous = now;
  return total > 0 ? Math.round((1000 * busy) / total) / 10 : 0;
}

async function databaseSizeMb(ctx: Pick<AppContext, 'db'>): Promise<number | null> {
  try {
    const r = (await ctx.db.execute(sql`select pg_database_size(current_database())::bigint as bytes`)) as unknown as {
      rows: Array<{ bytes: string | number }>;
    };
    return Math.round(Number(r.rows[0].bytes) / 1024 / 102.4) / 10;
  } catch {
    return null;
  }
}

async function websocketClients(): Promise<number> {
  const gauge = registry.getSingleMetric('realtime_connected_clients');
  const values = gauge ? (await gauge.get()).values : [];
  return values[0]?.value ?? 0;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const lagOf = (p: number) => round1(Math.max(0, loop.percentile(p) / 1e6 - LOOP_RESOLUTION_MS));

/** GET /admin/status/server: this instance's machine and process, read now. */
export async function serverInfo(ctx: Pick<AppContext, 'db' | 'dbKind' | 'cluster'>): Promise<ServerInfoDto> {
  const total = os.totalmem();
  const info: ServerInfoDto = {
    cpuModel: os.cpus()[0]?.model?.trim() || 'unknown',
    cpuUsage: await cpuUsage(),
    cpuCores: os.cpus().length,
    usedMemPercentage: round1((100 * (total - os.freemem())) / total),
    totalMemMb: Math.round(total / 1024 / 1024),
    processMemMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    uptimeSeconds: Math.round(process.uptime()),
    osUptimeSeconds: Math.round(os.uptime()),
    loadAverage: os.loadavg().map(round1),
    nodeVersion: process.version,
    database: { kind: ctx.dbKind, sizeMb: await databaseSizeMb(ctx) },
    // Since the previous reading, so each refresh shows the recent lag.
    // Each sample lasts the resolution plus the lag: the lag is what exceeds it.
    eventLoop: { p50Ms: lagOf(50), p99Ms: lagOf(99) },
    websocketClients: await websocketClients(),
    instances: { clustered: ctx.cluster.bus.enabled, leader: ctx.cluster.leadership.isLeader },
  };
  loop.reset();
  return info;
}
