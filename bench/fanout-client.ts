/**
 * The client side of bench/fanout.ts, run in child processes so the clients' CPU is not charged to the server's
 * event loop. On command it opens clients, records when each `priceUpdate` arrives, and turns that into delivery
 * counts and latencies against the send times the server reports.
 *
 * Most clients are lean but real: each is its own WebSocket (ws) speaking the Engine.IO v4 / Socket.IO v5 protocol
 * the way socket.io-client does (open packet `0{…}`, namespace connect `40`, connect ack `40{"sid":…}`, a pong `3`
 * for every ping `2`, events `42["name",…]`), and reads from each price batch only what the measurement needs: the
 * batch key, its newest tick `time`. Why lean: a full socket.io-client costs ~31 µs per message on the benchmark
 * machine (engine, manager, socket, decoder, JSON.parse of the whole batch), so 5,000 of them in one process handled
 * the last message of a batch ~150 ms after the first. That measured the harness, not the server; a browser has one
 * socket, not 5,000. A handful of clients (`full`) are full socket.io-client instances: they decode every message
 * and the report checks each payload against the one the server sent, so every run also proves that a real client
 * gets exactly the events broadcast.
 */
import { io } from 'socket.io-client';
import { WebSocket } from 'ws';

export type ClientCommand =
  | { type: 'connect'; url: string; lean: number; full: number; concurrency: number }
  | { type: 'measure' }
  | { type: 'report'; emits: Emit[] }
  | { type: 'close' };

/** A priceUpdate the server broadcast: its key (newest tick time), when it was handed over, and its payload as JSON. */
export type Emit = [key: number, emittedAt: number, json: string];

/** Arrivals of one group of clients over the measured window. */
export interface GroupReport {
  clients: number;
  /** Messages of the measured batches that arrived, and how many were expected (clients × batches). */
  delivered: number;
  expected: number;
  /** Per delivered message, from the newest tick's price time to arrival (includes the wait for the batch). */
  tick: number[];
  /** Per delivered message, from the server's emit call to arrival: the fan-out itself. */
  emit: number[];
}

export interface MeasureReport {
  lean: GroupReport;
  full: GroupReport & {
    /** Delivered payloads identical to what the server broadcast, and those that were not. */
    identical: number;
    different: number;
  };
  /** CPU time of this client process over the measured window, as a share of one core. */
  cpu: number;
}

export type ClientReply =
  | { type: 'connected'; clients: number; ms: number; failed: number; firstError: string | null }
  | { type: 'measuring' }
  | { type: 'report'; report: MeasureReport }
  | { type: 'error'; error: string };

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between the processes. */
// Times compared across processes are wall-clock milliseconds (tick times are Date.now() of the feeding process):
// each process's monotonic clock drifts from the wall clock differently, by tens of ms within seconds under load.
const now = () => Date.now();

/** Arrival times of one group: batch key and arrival time, two slots per message. */
class Samples {
  private data = new Float64Array(1 << 16);
  count = 0;
  record(key: number, at: number): void {
    if (this.count * 2 + 2 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.count * 2] = key;
    this.data[this.count * 2 + 1] = at;
    this.count++;
  }
  report(clients: number, emits: Emit[]): GroupReport {
    const emittedAt = new Map(emits.map(([key, at]) => [key, at]));
    const tick: number[] = [];
    const emit: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const key = this.data[i * 2];
      const sent = emittedAt.get(key);
      if (sent === undefined) continue; // a batch outside the measured window
      const at = this.data[i * 2 + 1];
      tick.push(at - key);
      emit.push(at - sent);
    }
    return { clients, delivered: emit.length, expected: clients * emits.length, tick, emit };
  }
}

const lean = new Samples();
const full = new Samples();
/** The payloads the full clients decoded, by batch key. */
const decoded: Array<[key: number, json: string]> = [];
const closers: Array<() => void> = [];
let leanClients = 0;
let fullClients = 0;
let measuring = false;
let cpuAtStart = process.cpuUsage();
let wallAtStart = 0;
let firstError: string | null = null;

const PRICE_EVENT = Buffer.from('42["priceUpdate",');
const TIME_FIELD = Buffer.from('"time":');

/** The newest `"time":` in a priceUpdate packet, read off the bytes without parsing the batch. */
function newestTime(packet: Buffer): number {
  let newest = 0;
  for (let i = packet.indexOf(TIME_FIELD); i !== -1; i = packet.indexOf(TIME_FIELD, i)) {
    i += TIME_FIELD.length;
    let v = 0;
    for (let c = packet[i]; c >= 0x30 && c <= 0x39; c = packet[++i]) v = v * 10 + c - 0x30;
    if (v > newest) newest = v;
  }
  return newest;
}

/** One lean client: resolves true once the server has acknowledged the namespace connect. */
function connectLean(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    const fail = (message: string) => {
      firstError ??= message;
      ws.terminate();
      resolve(false);
    };
    const timer = setTimeout(() => fail('timed out connecting'), 20_000);
    ws.on('error', (err) => fail(err.message));
    ws.on('message', (data: Buffer) => {
      if (data[0] === 0x34 /* 4 message */) {
        if (data[1] === 0x32 /* 2 event */) {
          if (
            measuring &&
            data.length > PRICE_EVENT.length &&
            data.compare(PRICE_EVENT, 0, PRICE_EVENT.length, 0, PRICE_EVENT.length) === 0
          )
            lean.record(newestTime(data), now());
        } else if (data[1] === 0x30 /* 0 connect ack */) {
          clearTimeout(timer);
          leanClients++;
          closers.push(() => ws.terminate());
          resolve(true);
        } else if (data[1] === 0x34 /* 4 connect error */) fail(data.toString());
      } else if (data[0] === 0x32 /* 2 ping */) ws.send('3');
      else if (data[0] === 0x30 /* 0 open */) ws.send('40');
    });
  });
}

/** One full socket.io-client that decodes every message and keeps the payloads for the report to check. */
function connectFull(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: 20_000,
    });
    s.on('priceUpdate', (ticks: Array<{ time: number }>) => {
      if (!measuring) return;
      const at = now();
      let key = 0;
      for (const t of ticks) if (t.time > key) key = t.time;
      full.record(key, at);
      decoded.push([key, JSON.stringify(ticks)]);
    });
    s.once('connect', () => {
      fullClients++;
      closers.push(() => s.close());
      resolve(true);
    });
    s.once('connect_error', (err) => {
      firstError ??= err.message;
      s.close();
      resolve(false);
    });
  });
}

/** Opens clients until this process has `leanWanted` lean and `fullWanted` full ones (steps add to earlier ones). */
async function connect(url: string, leanWanted: number, fullWanted: number, concurrency: number): Promise<ClientReply> {
  const started = performance.now();
  let failed = 0;
  while (fullClients < fullWanted && failed < 100) if (!(await connectFull(url))) failed++;
  while (leanClients < leanWanted && failed < 100) {
    const batch = Math.min(concurrency, leanWanted - leanClients);
    const results = await Promise.all(Array.from({ length: batch }, () => connectLean(url)));
    failed += results.filter((ok) => !ok).length;
  }
  return { type: 'connected', clients: leanClients + fullClients, ms: performance.now() - started, failed, firstError };
}

function report(emits: Emit[]): MeasureReport {
  measuring = false;
  const cpu = process.cpuUsage(cpuAtStart);
  const wall = performance.now() - wallAtStart;
  const sent = new Map(emits.map(([key, , json]) => [key, json]));
  let identical = 0;
  let different = 0;
  for (const [key, json] of decoded) {
    const expected = sent.get(key);
    if (expected === undefined) continue;
    if (json === expected) identical++;
    else different++;
  }
  return {
    lean: lean.report(leanClients, emits),
    full: { ...full.report(fullClients, emits), identical, different },
    cpu: (cpu.user + cpu.system) / 1000 / wall,
  };
}

const reply = (msg: ClientReply) => process.send?.(msg);

process.on('message', (cmd: ClientCommand) => {
  void (async () => {
    try {
      if (cmd.type === 'connect') reply(await connect(cmd.url, cmd.lean, cmd.full, cmd.concurrency));
      else if (cmd.type === 'measure') {
        lean.count = full.count = decoded.length = 0;
        cpuAtStart = process.cpuUsage();
        wallAtStart = performance.now();
        measuring = true;
        reply({ type: 'measuring' });
      } else if (cmd.type === 'report') reply({ type: 'report', report: report(cmd.emits) });
      else {
        for (const close of closers) close();
        process.exit(0);
      }
    } catch (err) {
      reply({ type: 'error', error: err instanceof Error ? err.message : String(err) });
    }
  })();
});
