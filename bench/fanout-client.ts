/**
 * The client side of bench/fanout.ts, run in one or more child processes so the clients' CPU is not charged to
 * the server's event loop. It opens Socket.IO clients (websocket transport) on command, records when each `priceUpdate`
 * arrives, and turns that into delivery counts and latencies against the send times the server reports.
 */
import { io, type Socket } from 'socket.io-client';

export type ClientCommand =
  | { type: 'connect'; url: string; total: number; concurrency: number }
  | { type: 'measure' }
  | { type: 'report'; emits: Array<[key: number, emittedAt: number]> }
  | { type: 'close' };

export interface MeasureReport {
  clients: number;
  /** Messages of the measured batches that arrived, and how many were expected (clients × batches). */
  delivered: number;
  expected: number;
  /** Per delivered message, from the newest tick's price time to arrival (includes the wait for the batch). */
  tick: number[];
  /** Per delivered message, from the server's emit call to arrival: the fan-out itself. */
  emit: number[];
  /** CPU time of this client process over the measured window, as a share of one core. */
  cpu: number;
}

export type ClientReply =
  | { type: 'connected'; clients: number; ms: number; failed: number; firstError: string | null }
  | { type: 'measuring' }
  | { type: 'report'; report: MeasureReport }
  | { type: 'error'; error: string };

interface PriceTickLike {
  time: number;
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between the two processes. */
const now = () => performance.timeOrigin + performance.now();

const sockets: Socket[] = [];
let measuring = false;
/** Arrivals while measuring: batch key (newest tick time) and arrival time, two slots per message. */
let samples = new Float64Array(1 << 20);
let count = 0;
let cpuAtStart = process.cpuUsage();
let wallAtStart = 0;

function record(key: number, at: number): void {
  if (count * 2 + 2 > samples.length) {
    const grown = new Float64Array(samples.length * 2);
    grown.set(samples);
    samples = grown;
  }
  samples[count * 2] = key;
  samples[count * 2 + 1] = at;
  count++;
}

let firstError: string | null = null;

function connectOne(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = io(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, timeout: 20_000 });
    s.on('priceUpdate', (ticks: PriceTickLike[]) => {
      if (!measuring) return;
      const at = now();
      let key = 0;
      for (const t of ticks) if (t.time > key) key = t.time;
      record(key, at);
    });
    s.once('connect', () => {
      sockets.push(s);
      resolve(true);
    });
    s.once('connect_error', (err) => {
      firstError ??= err.message;
      s.close();
      resolve(false);
    });
  });
}

async function connect(url: string, total: number, concurrency: number): Promise<ClientReply> {
  const started = performance.now();
  let failed = 0;
  while (sockets.length < total && failed < 100) {
    const batch = Math.min(concurrency, total - sockets.length);
    const results = await Promise.all(Array.from({ length: batch }, () => connectOne(url)));
    failed += results.filter((ok) => !ok).length;
  }
  return { type: 'connected', clients: sockets.length, ms: performance.now() - started, failed, firstError };
}

function report(emits: Array<[number, number]>): MeasureReport {
  measuring = false;
  const cpu = process.cpuUsage(cpuAtStart);
  const wall = performance.now() - wallAtStart;
  const emittedAt = new Map(emits);
  const tick: number[] = [];
  const emit: number[] = [];
  for (let i = 0; i < count; i++) {
    const key = samples[i * 2];
    const sent = emittedAt.get(key);
    if (sent === undefined) continue; // a batch outside the measured window
    const at = samples[i * 2 + 1];
    tick.push(at - key);
    emit.push(at - sent);
  }
  return { clients: sockets.length, delivered: emit.length, expected: sockets.length * emits.length, tick, emit, cpu: (cpu.user + cpu.system) / 1000 / wall };
}

const reply = (msg: ClientReply) => process.send?.(msg);

process.on('message', (cmd: ClientCommand) => {
  void (async () => {
    try {
      if (cmd.type === 'connect') reply(await connect(cmd.url, cmd.total, cmd.concurrency));
      else if (cmd.type === 'measure') {
        count = 0;
        cpuAtStart = process.cpuUsage();
        wallAtStart = performance.now();
        measuring = true;
        reply({ type: 'measuring' });
      } else if (cmd.type === 'report') reply({ type: 'report', report: report(cmd.emits) });
      else {
        for (const s of sockets) s.close();
        process.exit(0);
      }
    } catch (err) {
      reply({ type: 'error', error: err instanceof Error ? err.message : String(err) });
    }
  })();
});
