import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A local EOD Historical Data real-time server for /ws/us-quote?api_token=KEY: greets a good token with
 * {"status_code":200,"message":"Authorized"}, refuses a bad one with {"status_code":401,"message":...} and
 * closes; accepts {"action":"subscribe","symbols":"AAPL,MSFT"} and sends quotes {s, ap, as, bp, bs, t} one per frame.
 */
export class FakeEod {
  readonly server: WebSocketServer;
  readonly subscriptions: string[] = [];
  readonly paths: string[] = [];
  private readonly clients = new Map<WebSocket, Set<string>>();
  static readonly REFUSAL = 'Invalid API token';

  private constructor(
    server: WebSocketServer,
    private readonly validKey: string,
  ) {
    this.server = server;
    server.on('connection', (ws, req) => {
      const url = new URL(req.url ?? '/', 'ws://localhost');
      this.paths.push(url.pathname);
      if (url.pathname !== '/ws/us-quote' || url.searchParams.get('api_token') !== this.validKey) {
        ws.send(JSON.stringify({ status_code: 401, message: FakeEod.REFUSAL }));
        ws.close();
        return;
      }
      const symbols = new Set<string>();
      this.clients.set(ws, symbols);
      ws.on('close', () => this.clients.delete(ws));
      ws.send(JSON.stringify({ status_code: 200, message: 'Authorized' }));
      ws.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as { action: string; symbols: string };
        if (msg.action !== 'subscribe') return;
        this.subscriptions.push(msg.symbols);
        for (const s of msg.symbols.split(',')) symbols.add(s.trim());
      });
    });
  }

  static async start(validKey: string): Promise<FakeEod> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new FakeEod(server, validKey);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  /** Clients subscribed to a symbol. */
  subscribers(symbol: string): number {
    return [...this.clients.values()].filter((s) => s.has(symbol)).length;
  }

  quote(s: string, bp: number, ap: number, t = Date.now()): void {
    for (const [ws, symbols] of this.clients)
      if (symbols.has(s)) ws.send(JSON.stringify({ s, ap, as: 100, bp, bs: 200, t }));
  }

  dropAll(): void {
    for (const ws of this.clients.keys()) ws.terminate();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
