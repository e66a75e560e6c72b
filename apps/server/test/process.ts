import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

const serverMain = path.resolve(import.meta.dirname, '../src/main.ts');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A server process started as `npm start` does, for tests that kill or restart it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Ends it with SIGKILL: no shutdown code runs, as in a power cut or an OOM kill. */
  kill(): Promise<void>;
  /** Ends it with SIGTERM and waits for the graceful stop. */
  stop(): Promise<number | null>;
  /** Everything it has printed so far (for a failing test's message). */
  output(): string;
}

/** `startMs`: how long a start may take (several starting at once on a busy machine take longer than one). */
export async function startServerProcess(
  env: Record<string, string>,
  port?: number,
  startMs = 90_000,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(p),
      HOST: '127.0.0.1',
      APP_URL: url,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), startMs);
    const onData = () => {
      if (output.includes('Trading platform: http')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    url,
    child,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    output: () => output,
  };
}

/** A fresh PostgreSQL database on the test server (TEST_DATABASE_URL), dropped by the returned function. */
export async function scratchDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
