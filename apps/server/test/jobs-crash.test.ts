import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { scratchDatabase, startServerProcess, type ServerProcess } from './process.ts';
import { waitFor } from './fakes/wait.ts';

/**
 * A job in hand when its instance is killed (SIGKILL): a password-reset mail whose SMTP server took the connection
 * and never answered. A second instance, whose SMTP server answers, delivers that mail within a minute of the kill,
 * once: one mail received, one outbox row for the job. Needs TEST_DATABASE_URL (the job queue is the database's, so
 * Redis is not needed); skipped on the embedded database, where one instance is all there is.
 */
const base = process.env.TEST_DATABASE_URL;
const CLIENT = 'client@demo.test';

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

describe.skipIf(!base)('a job in hand when its instance is killed (PostgreSQL)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('is done by another instance within a minute, once', { timeout: 150_000 }, async () => {
    // An SMTP server that takes the connection and says nothing: the send hangs before the greeting.
    const silentSockets: net.Socket[] = [];
    let connected: () => void = () => undefined;
    const silentConnection = new Promise<void>((resolve) => (connected = resolve));
    const silent = net.createServer((socket) => {
      socket.on('error', () => undefined);
      silentSockets.push(socket);
      connected();
    });
    const silentPort = await listen(silent);
    cleanups.push(() => {
      for (const s of silentSockets) s.destroy();
      silent.close();
    });

    // An SMTP server that answers, for the second instance.
    const received: Array<{ to: string[]; at: number }> = [];
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), at: Date.now() });
          callback();
        });
      },
    });
    const smtpPort = await listen(smtp.server);
    cleanups.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

    const db = await scratchDatabase(base!);
    cleanups.push(() => db.drop());
    const query = async <T>(text: string, values: unknown[] = []): Promise<T[]> => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query(text, values)).rows as T[];
      } finally {
        await c.end();
      }
    };
    const env = {
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      DEMO_ACTIVITY: 'false',
      LOG_REQUESTS: 'none',
      MAIL_FROM: 'Platform <no-reply@platform.test>',
    };
    const servers: ServerProcess[] = [];
    cleanups.push(() => {
      for (const s of servers) s.child.kill('SIGKILL');
    });

    const first = await startServerProcess({ ...env, SMTP_URL: `smtp://127.0.0.1:${silentPort}?ignoreTLS=true` });
    servers.push(first);
    const asked = await fetch(`${first.url}/api/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: CLIENT }),
    });
    expect(asked.status).toBe(200);
    await Promise.race([
      silentConnection,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no SMTP connection:\n${first.output()}`)), 20_000)),
    ]);
    const [job] = await query<{ id: string; state: string }>(
      `select id, state from pgboss.job where name = 'mail.reset-password'`,
    );
    expect(job.state).toBe('active');

    const killedAt = Date.now();
    await first.kill();
    const second = await startServerProcess({ ...env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true` });
    servers.push(second);
    const startedAfter = (Date.now() - killedAt) / 1000;
    await waitFor('the mail to be delivered', () => received.length > 0, 90_000);
    const seconds = (received[0].at - killedAt) / 1000;
    await waitFor(
      'the job to complete',
      async () =>
        (await query<{ state: string }>('select state from pgboss.job where id = $1', [job.id]))[0]?.state ===
        'completed',
      30_000,
    );
    console.log(
      `mail job in hand at a kill -9: delivered by the next instance ${seconds.toFixed(1)} s after the kill (that instance was up after ${startedAfter.toFixed(1)} s)`,
    );

    expect(received.map((m) => m.to)).toEqual([[CLIENT]]);
    const outbox = await query<{ job_id: string | null; sent_at: Date | null; error: string | null }>(
      'select job_id, sent_at, error from mail_outbox where "to" = $1',
      [CLIENT],
    );
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ job_id: job.id, error: null });
    expect(outbox[0].sent_at).not.toBeNull();
    expect(seconds).toBeLessThan(60);
  });
});
