/**
 * The load generator of bench/orders.ts, run as a child process so its CPU is not charged to the server's event
 * loop. It receives one phase at a time over IPC, runs it and answers with the counts and latencies.
 *
 * - 'http': virtual users, each signed in as its own customer, alternate opening and closing a position over
 *   keep-alive HTTP, exactly as the trading screen does.
 * - 'raw': the same database transaction as an order placement (lock the wallet, insert the order, hold the
 *   margin), sent straight to PostgreSQL with node-postgres, as the ceiling the HTTP figure is compared with.
 */
import pg from 'pg';
import { Pool } from 'undici';

export interface PhaseTiming {
  concurrency: number;
  warmupMs: number;
  measureMs: number;
}

export interface HttpPhase extends PhaseTiming {
  type: 'http';
  origin: string;
  /** One per virtual user: its session cookie and the client address the proxy would report. */
  users: Array<{ cookie: string; ip: string }>;
  instruments: string[];
}

export interface RawPhase extends PhaseTiming {
  type: 'raw';
  url: string;
  /** One wallet per virtual user, so transactions never wait on each other's row locks. */
  wallets: Array<{ walletId: number; userId: number }>;
  instrument: { id: number; name: string; base: string; quote: string; kind: string; bid: string; ask: string };
}

export type Phase = HttpPhase | RawPhase;

export interface PhaseResult {
  /** Completed operations inside the measured window (an HTTP order request, or a committed transaction). */
  ops: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  errorSamples: string[];
  /** CPU time the load generator itself used in the window. */
  clientCpuMs: number;
}

/** Counts and latencies of the measured window only; warm-up work is done but not recorded. */
class Recorder {
  measuring = false;
  stopped = false;
  readonly latencies: number[] = [];
  errors = 0;
  readonly errorSamples: string[] = [];
  private startedAt = 0;
  private endedAt = 0;

  ok(ms: number): void {
    if (this.measuring) this.latencies.push(ms);
  }

  fail(what: string): void {
    if (!this.measuring) return;
    this.errors++;
    if (this.errorSamples.length < 5) this.errorSamples.push(what);
  }

  async run(t: PhaseTiming, workers: Array<() => Promise<void>>): Promise<PhaseResult> {
    const running = workers.map((w) => w());
    await sleep(t.warmupMs);
    // The parent samples CPU use (server, database, machine) over exactly the measured window.
    process.send?.({ window: 'start' });
    const cpu0 = process.cpuUsage();
    this.measuring = true;
    this.startedAt = performance.now();
    await sleep(t.measureMs);
    this.measuring = false;
    this.endedAt = performance.now();
    const cpu = process.cpuUsage(cpu0);
    process.send?.({ window: 'end' });
    this.stopped = true;
    await Promise.all(running);
    const sorted = Float64Array.from(this.latencies).sort();
    const pct = (p: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
    return {
      ops: sorted.length,
      seconds: (this.endedAt - this.startedAt) / 1000,
      p50: pct(50),
      p99: pct(99),
      max: sorted.length ? sorted[sorted.length - 1] : 0,
      errors: this.errors,
      errorSamples: this.errorSamples,
      clientCpuMs: (cpu.user + cpu.system) / 1000,
    };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface OrderBody {
  order?: { id: number };
  message?: string;
}

async function runHttp(phase: HttpPhase): Promise<PhaseResult> {
  const pool = new Pool(phase.origin, { connections: phase.concurrency, pipelining: 1, keepAliveTimeout: 60_000 });
  const rec = new Recorder();

  async function post(
    path: string,
    body: unknown,
    user: HttpPhase['users'][number],
  ): Promise<{ status: number; body: OrderBody; ms: number }> {
    const t0 = performance.now();
    const res = await pool.request({
      path,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: user.cookie,
        // A browser's same-origin fetch carries its Origin; the CSRF guard compares it with the Host.
        origin: phase.origin,
        'x-forwarded-for': user.ip,
      },
      body: JSON.stringify(body),
    });
    const parsed = (await res.body.json()) as OrderBody;
    return { status: res.statusCode, body: parsed, ms: performance.now() - t0 };
  }

  const worker = (i: number) => async () => {
    const user = phase.users[i];
    const instrument = phase.instruments[i % phase.instruments.length];
    let side: 'buy' | 'sell' = i % 2 === 0 ? 'buy' : 'sell';
    while (!rec.stopped) {
      try {
        const opened = await post(
          '/api/dashboard/orders',
          { type: side, instrument, amount: '1000', profit: null, loss: null },
          user,
        );
        side = side === 'buy' ? 'sell' : 'buy';
        if (opened.status !== 200 || !opened.body.order) {
          rec.fail(`open ${opened.status} ${opened.body.message ?? ''}`);
          continue;
        }
        rec.ok(opened.ms);
        // The position is closed even after the window ends, so every wallet finishes flat.
        const closed = await post('/api/dashboard/orders/close', { orderId: opened.body.order.id, instrument }, user);
        if (closed.status !== 200) rec.fail(`close ${closed.status} ${closed.body.message ?? ''}`);
        else rec.ok(closed.ms);
      } catch (err) {
        rec.fail(err instanceof Error ? err.message : String(err));
        await sleep(50);
      }
    }
  };

  try {
    return await rec.run(
      phase,
      Array.from({ length: phase.concurrency }, (_, i) => worker(i)),
    );
  } finally {
    await pool.close();
  }
}

async function runRaw(phase: RawPhase): Promise<PhaseResult> {
  const pool = new pg.Pool({ connectionString: phase.url, max: phase.concurrency });
  // An idle connection ended by the server (the database is dropped at the end) is not this phase's failure.
  pool.on('error', () => undefined);
  const rec = new Recorder();
  const ins = phase.instrument;
  const worker = (i: number) => async () => {
    const { walletId, userId } = phase.wallets[i];
    while (!rec.stopped) {
      const t0 = performance.now();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        rec.fail(err instanceof Error ? err.message : String(err));
        await sleep(50);
        continue;
      }
      try {
        await client.query('BEGIN');
        await client.query('SELECT id, user_id, balance, margin, currency FROM balances WHERE id = $1 FOR UPDATE', [
          walletId,
        ]);
        await client.query(
          `INSERT INTO orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type, trade_amount,
             open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used, leverage)
           VALUES ($1, $2, 'real', 'USD', $3, $4, $5, $6, $7, 'buy', '1000.00000000', $8, $9, $8, NULL, NULL, '0.20000000', '1.00000000', '11.00000000', 100)
           RETURNING *`,
          [userId, walletId, ins.id, ins.name, ins.base, ins.quote, ins.kind, ins.ask, ins.bid],
        );
        await client.query('UPDATE balances SET margin = margin + $2 WHERE id = $1', [walletId, '11.00000000']);
        await client.query('COMMIT');
        rec.ok(performance.now() - t0);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        rec.fail(err instanceof Error ? err.message : String(err));
      } finally {
        client.release();
      }
    }
  };
  try {
    return await rec.run(
      phase,
      Array.from({ length: phase.concurrency }, (_, i) => worker(i)),
    );
  } finally {
    await pool.end();
  }
}

process.on('message', (msg: Phase) => {
  const run = msg.type === 'http' ? runHttp(msg) : runRaw(msg);
  run.then(
    (result) => process.send?.({ done: true, ok: true, result }),
    (err: unknown) =>
      process.send?.({ done: true, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
