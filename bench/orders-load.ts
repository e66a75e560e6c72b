/**
 * The orders benchmark's machinery: the load generator's child process driven one phase at a time, where the CPU went
 * during its measured window (server, database backends, load generator, the machine), and a CPU profile of the
 * server over that window.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import type { Phase, PhaseResult } from './orders-client.ts';

/** CPU time of a set of processes and of the whole machine, from /proc (Linux); null elsewhere. */
interface CpuSample {
  self: NodeJS.CpuUsage;
  /** Clock ticks of the PostgreSQL backends serving this run (USER_HZ, 100 a second on Linux). */
  dbTicks: number;
  machineBusy: number;
  machineTotal: number;
}

function ticksOf(pids: number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // The backend ended; its time is lost, which only understates the database's share.
    }
  }
  return sum;
}

function sampleCpu(dbPids: number[]): CpuSample | null {
  try {
    const [, ...cols] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = cols.map(Number);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return {
      self: process.cpuUsage(),
      dbTicks: ticksOf(dbPids),
      machineBusy: total - n[3] - n[4],
      machineTotal: total,
    };
  } catch {
    return null;
  }
}

/** Where the CPU went during the measured window, in milliseconds per second of wall time (1000 = one core). */
export interface CpuUse {
  server: number;
  db: number | null;
  client: number;
  machine: number;
}

/** The load generator: one child process for the whole run, one phase at a time. */
export class LoadClient {
  private readonly child: ChildProcess;
  constructor() {
    this.child = fork(path.join(import.meta.dirname, 'orders-client.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
  }
  /** Runs a phase; dbPids are the PostgreSQL backends whose CPU is charged to the database (none for PGlite). */
  run(
    phase: Phase,
    dbPids: () => Promise<number[]>,
    onWindow?: (edge: 'start' | 'end') => void,
  ): Promise<{ result: PhaseResult; cpu: CpuUse | null }> {
    return new Promise((resolve, reject) => {
      let pids: number[] = [];
      let first: CpuSample | null = null;
      let last: CpuSample | null = null;
      let firstAt = 0;
      let lastAt = 0;
      const onMessage = (
        msg:
          | { window: 'start' | 'end' }
          | { done: true; ok: true; result: PhaseResult }
          | { done: true; ok: false; error: string },
      ) => {
        if ('window' in msg) {
          onWindow?.(msg.window);
          if (msg.window === 'start') {
            // Sampled synchronously first; the backend list arrives a moment later and is read at the end only.
            first = sampleCpu([]);
            firstAt = performance.now();
            void dbPids().then((p) => {
              pids = p;
              if (first) first.dbTicks = ticksOf(p);
            });
          } else {
            last = sampleCpu(pids);
            lastAt = performance.now();
          }
          return;
        }
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        if (!msg.ok) return reject(new Error(`load generator: ${msg.error}`));
        const a = first as CpuSample | null;
        const b = last as CpuSample | null;
        const wallMs = lastAt - firstAt;
        const cpu: CpuUse | null =
          a && b && wallMs > 0
            ? {
                server: ((b.self.user + b.self.system - a.self.user - a.self.system) / 1000) * (1000 / wallMs),
                db: pids.length ? (b.dbTicks - a.dbTicks) * 10 * (1000 / wallMs) : null,
                client: msg.result.clientCpuMs * (1000 / wallMs),
                machine:
                  ((b.machineBusy - a.machineBusy) / (b.machineTotal - a.machineTotal)) * os.cpus().length * 1000,
              }
            : null;
        resolve({ result: msg.result, cpu });
      };
      const onExit = (code: number | null) => reject(new Error(`load generator exited with ${code}`));
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(phase);
    });
  }
  close(): void {
    this.child.disconnect();
  }
}

/** Profiles this process (the server) over the measured window only, so start-up and sign-ins stay out of it. */
export class WindowProfiler {
  private readonly session = new inspector.Session();
  private finished: Promise<string> | null = null;
  constructor(private readonly file: string) {
    this.session.connect();
  }
  edge(edge: 'start' | 'end'): void {
    if (edge === 'start') {
      void this.session.post('Profiler.enable').then(() => this.session.post('Profiler.start'));
      return;
    }
    this.finished = this.session.post('Profiler.stop').then(({ profile }) => {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, JSON.stringify(profile));
      this.session.disconnect();
      return this.file;
    });
  }
  done(): Promise<string> {
    return this.finished ?? Promise.resolve('(window never ended)');
  }
}
