import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import type { FeedProvider } from '../feed-provider.ts';
import { Backoff, type HeartbeatReporter, seconds, type ProviderTiming } from './common.ts';

export interface SessionDown {
  /** Why the connection ended, in words staff can act on (the provider's own message when it refused us). */
  reason: string;
  retryInMs: number;
  /** The provider refused the credentials or the plan; the retry waits timing.authRetryMs. */
  refused: boolean;
}

export interface WsSessionOptions {
  url: () => string;
  timing: ProviderTiming;
  onOpen(session: WsSession): void;
  onText(text: string, session: WsSession): void;
  onDown(down: SessionDown): void;
  log?: (msg: string) => void;
}

const REFUSED_HTTP = new Set([401, 402, 403]);

/**
 * One provider WebSocket kept alive: reconnects with exponential backoff after any drop, pings so a dead TCP
 * connection (no close frame, e.g. a NAT timeout) is noticed within timing.stallMs, and waits the longer
 * authRetryMs after the provider refused the key.
 */
export class WsSession {
  private ws: WebSocket | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private liveness: NodeJS.Timeout | null = null;
  private running = false;
  private readonly backoff: Backoff;
  /** Set when the provider refused us: the message to report and the longer wait. */
  private refusal: string | null = null;
  private closeReason: string | null = null;

  constructor(private readonly opts: WsSessionOptions) {
    this.backoff = new Backoff(opts.timing);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const ws = this.ws;
    if (!ws) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'client stopping');
      else ws.terminate();
      // A peer that never answers the close frame must not hold up a restart.
      setTimeout(() => ws.terminate(), 1000).unref();
    });
  }

  send(message: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The session proved good (authenticated, data flowing): the next drop retries quickly again. */
  healthy(): void {
    this.backoff.reset();
  }

  /** The provider refused the key or the plan: close, report its message, and wait authRetryMs. */
  refuse(message: string): void {
    this.refusal = message;
    this.ws?.close(1000, 'refused');
  }

  private connect(): void {
    this.refusal = null;
    this.closeReason = null;
    let lastSeen = Date.now();
    const ws = new WebSocket(this.opts.url(), { handshakeTimeout: this.opts.timing.stallMs });
    this.ws = ws;

    ws.on('open', () => {
      lastSeen = Date.now();
      this.liveness = setInterval(
        () => {
          if (Date.now() - lastSeen > this.opts.timing.stallMs) {
            this.closeReason = `no data for ${Math.round((Date.now() - lastSeen) / 1000)} s`;
            ws.terminate();
          } else if (ws.readyState === WebSocket.OPEN) ws.ping();
        },
        Math.max(50, Math.floor(this.opts.timing.stallMs / 2)),
      );
      this.opts.onOpen(this);
    });
    ws.on('message', (data: RawData) => {
      lastSeen = Date.now();
      try {
        this.opts.onText(rawText(data), this);
      } catch (err) {
        this.opts.log?.(`provider message failed: ${(err as Error).message}`);
      }
    });
    ws.on('pong', () => {
      lastSeen = Date.now();
    });
    // A refused upgrade (wrong key in the URL, unpaid plan) answers with an HTTP status and usually a JSON body.
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (body.length < 2000) body += c;
      });
      res.on('end', () => {
        const text = providerMessage(body) ?? `HTTP ${res.statusCode ?? 0}`;
        if (REFUSED_HTTP.has(res.statusCode ?? 0)) this.refusal = text;
        else this.closeReason = text;
        ws.terminate();
      });
    });
    ws.on('error', (err: Error) => {
      this.closeReason ??= err.message;
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (this.liveness) clearInterval(this.liveness);
      this.liveness = null;
      if (this.ws === ws) this.ws = null;
      if (!this.running) return;
      const refused = this.refusal !== null;
      const retryInMs = refused ? this.opts.timing.authRetryMs : this.backoff.next();
      const why =
        this.refusal ??
        this.closeReason ??
        (reason.length ? `closed by provider: ${reason.toString('utf8')}` : `closed by provider (code ${code})`);
      this.opts.onDown({ reason: why, retryInMs, refused });
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.running) this.connect();
      }, retryInMs);
    });
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** The human message inside a provider's JSON error body ({message}, {error}, {errorMessage}), if any. */
export function providerMessage(body: string): string | null {
  try {
    const json: unknown = JSON.parse(body);
    if (json && typeof json === 'object') {
      for (const k of ['message', 'errorMessage', 'error']) {
        const v = (json as Record<string, unknown>)[k];
        if (typeof v === 'string' && v) return v;
      }
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  const text = body.trim();
  return text ? text.slice(0, 200) : null;
}

/** The failure heartbeat of a dropped provider connection: the refusal as the provider said it, else the retry. */
export function reportDown(
  id: string,
  beat: HeartbeatReporter,
  log: ((msg: string) => void) | undefined,
  down: SessionDown,
): void {
  log?.(`${id}: ${down.reason}`);
  beat.report(
    false,
    down.refused ? down.reason : `Disconnected (${down.reason}); reconnecting in ${seconds(down.retryInMs)}`,
  );
}

/** A WebSocket provider as a feed: heartbeats are sent only while it runs. */
export const wsFeed = (id: string, session: WsSession, beat: HeartbeatReporter): FeedProvider => ({
  id,
  start() {
    beat.unmute();
    session.start();
  },
  async stop() {
    beat.mute();
    await session.stop();
  },
});
