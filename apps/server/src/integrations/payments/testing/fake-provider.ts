import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingCallback } from '../types.ts';

/**
 * A small local payment provider for tests: a node:http server on 127.0.0.1 (port 0) that records every request and
 * answers through a handler written per provider, after that provider's published request format.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The query string exactly as it arrived, with its leading '?' ('' when none). */
  search: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON (application/json) or as a form (application/x-www-form-urlencoded). */
  json: unknown;
  form: URLSearchParams;
}

export interface Reply {
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  text(status: number, body: string, headers?: Record<string, string>): void;
}

export type Handler = (req: RecordedRequest, reply: Reply) => void | Promise<void>;

export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  private handler: Handler;
  private readonly server: http.Server;

  private constructor(handler: Handler) {
    this.handler = handler;
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const text = rawBody.toString('utf8');
        const type = String(req.headers['content-type'] ?? '');
        let json: unknown;
        if (type.includes('json')) {
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
        }
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          search: (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '',
          headers: req.headers,
          rawBody,
          text,
          json,
          form: new URLSearchParams(type.includes('x-www-form-urlencoded') ? text : ''),
        };
        this.requests.push(recorded);
        const reply: Reply = {
          json: (status, body, headers = {}) => {
            res.writeHead(status, { 'content-type': 'application/json', ...headers });
            res.end(JSON.stringify(body));
          },
          text: (status, body, headers = {}) => {
            res.writeHead(status, { 'content-type': 'text/plain', ...headers });
            res.end(body);
          },
        };
        Promise.resolve(this.handler(recorded, reply)).catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`fake provider failed: ${String(err)}`);
        });
      });
    });
  }

  static async start(handler: Handler): Promise<FakeProvider> {
    const fake = new FakeProvider(handler);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** Swaps the handler (a test that makes the provider fail). */
  use(handler: Handler): void {
    this.handler = handler;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The last request to a path. */
  last(path: string): RecordedRequest | undefined {
    return [...this.requests].reverse().find((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A callback as the platform's route hands it to an adapter: raw bytes kept, body parsed by content type. */
export function incoming(opts: {
  body?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}): IncomingCallback {
  const body = opts.body ?? '';
  const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const type = headers['content-type'] ?? '';
  let parsed: unknown;
  if (type.includes('json')) {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
  } else if (type.includes('x-www-form-urlencoded')) {
    parsed = Object.fromEntries(new URLSearchParams(body));
  }
  return { headers, rawBody: Buffer.from(body, 'utf8'), query: opts.query ?? {}, body: parsed };
}

/** A fixed clock for timestamp checks. */
export const NOW = Date.UTC(2025, 4, 12, 10, 30, 0);
export const nowSeconds = (ms = NOW): number => Math.floor(ms / 1000);
