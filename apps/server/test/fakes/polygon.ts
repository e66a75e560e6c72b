import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

type Cluster = 'forex' | 'crypto';

/**
 * A local Polygon.io WebSocket server (forex and crypto clusters) speaking its protocol: greets with a
 * `connected` status, expects {"action":"auth","params":KEY}, answers auth_success or auth_failed (then closes,
 * as Polygon does), accepts {"action":"subscribe","params":"C.EUR/USD,..."} and sends events as JSON arrays.
 */
export class FakePolygon {
  readonly server: WebSocketServer;
  /** Every subscribe `params` string received, per cluster. */
  readonly subscriptions: Record<Cluster, string[]> = { forex: [], crypto: [] };
  /** Every auth key received. */
  readonly auths: string[] = [];
  private readonly clients = new Set<{ ws: WebSocket; cluster: Cluster; authed: boolean }>();

  private constructor(
    server: WebSocketServer,
    private readonly validKey: string,
  ) {
    this.server = server;
    server.on('connection', (ws, req) => {
      const cluster: Cluster = req.url?.startsWith('/crypto') ? 'crypto' : 'forex';
      const client = { ws, cluster, authed: false };
      this.clients.add(client);
      ws.on('close', () => this.clients.delete(client));
      ws.send(JSON.stringify([{ ev: 'status', status: 'connected', message: 'Connected Successfully' }]));
      ws.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as { action: string; params: string };
        if (msg.action === 'auth') {
          this.auths.push(msg.params);
          if (msg.params === this.validKey) {
            client.authed = true;
            ws.send(JSON.stringify([{ ev: 'status', status: 'auth_success', message: 'authenticated' }]));
          } else {
            ws.send(JSON.stringify([{ ev: 'status', status: 'auth_failed', message: 'authentication failed' }]));
            ws.close();
          }
        } else if (msg.action === 'subscribe' && client.authed) {
          this.subscriptions[cluster].push(msg.params);
          ws.send(JSON.stringify([{ ev: 'status', status: 'success', message: `subscribed to: ${msg.params}` }]));
        }
      });
    });
  }

  static async start(validKey: string): Promise<FakePolygon> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new FakePolygon(server, validKey);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Authenticated connections per cluster. */
  authed(cluster: Cluster): number {
    return [...this.clients].filter((c) => c.cluster === cluster && c.authed).length;
  }

  /** Sends one frame of events to every authenticated client of a cluster. */
  push(cluster: Cluster, events: object[]): void {
    for (const c of this.clients) if (c.cluster === cluster && c.authed) c.ws.send(JSON.stringify(events));
  }

  /** Drops every connection without a close frame, as a network failure would. */
  dropAll(): void {
    for (const c of this.clients) c.ws.terminate();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
