import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Stream {
  res: http.ServerResponse;
  instruments: Set<string>;
  heartbeat: NodeJS.Timeout;
}

/**
 * A local Oanda v20 stream host: GET /v3/accounts/{id}/pricing/stream?instruments=A,B with
 * `Authorization: Bearer KEY` answers an endless newline-delimited JSON body of PRICE and HEARTBEAT lines;
 * a wrong token gets 401 {"errorMessage": ...} and an unknown account 400, as Oanda answers.
 */
export class FakeOanda {
  readonly server: http.Server;
  /** Every stream request: account, instruments asked for and the Authorization header. */
  readonly requests: Array<{ account: string; instruments: string[]; authorization: string | undefined }> = [];
  private readonly streams = new Set<Stream>();
  static readonly REFUSAL = 'Insufficient authorization to perform request.';
  /** Set to make open streams go silent without closing, as a stuck connection does. */
  stalled = false;

  private constructor(
    private readonly account: string,
    private readonly validKey: string,
    private readonly heartbeatMs: number,
  ) {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(account: string, validKey: string, heartbeatMs = 100): Promise<FakeOanda> {
    const fake = new FakeOanda(account, validKey, heartbeatMs);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get open(): number {
    return this.streams.size;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = /^\/v3\/accounts\/([^/]+)\/pricing\/stream$/.exec(url.pathname);
    const instruments = (url.searchParams.get('instruments') ?? '').split(',').filter(Boolean);
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!m || req.method !== 'GET') return json(404, { errorMessage: 'Not found' });
    this.requests.push({ account: decodeURIComponent(m[1]), instruments, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${this.validKey}`) return json(401, { errorMessage: FakeOanda.REFUSAL });
    if (decodeURIComponent(m[1]) !== this.account)
      return json(400, { errorMessage: "Invalid value specified for 'accountID'" });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' });
    const stream: Stream = {
      res,
      instruments: new Set(instruments),
      heartbeat: setInterval(() => {
        if (!this.stalled) res.write(`${JSON.stringify({ type: 'HEARTBEAT', time: new Date().toISOString() })}\n`);
      }, this.heartbeatMs),
    };
    this.streams.add(stream);
    res.on('close', () => {
      clearInterval(stream.heartbeat);
      this.streams.delete(stream);
    });
  }

  /** Sends a PRICE line (prices as decimal strings, as Oanda does) to every stream that asked for the instrument. */
  price(
    instrument: string,
    bid: string,
    ask: string,
    extra: { closeoutBid?: string; closeoutAsk?: string; tradeable?: boolean; time?: string } = {},
  ): void {
    if (this.stalled) return;
    const line = {
      type: 'PRICE',
      time: extra.time ?? '2025-01-06T10:00:00.123456789Z',
      bids: [{ price: bid, liquidity: 1000000 }],
      asks: [{ price: ask, liquidity: 1000000 }],
      closeoutBid: extra.closeoutBid ?? bid,
      closeoutAsk: extra.closeoutAsk ?? ask,
      status: 'tradeable',
      tradeable: extra.tradeable ?? true,
      instrument,
    };
    for (const s of this.streams) if (s.instruments.has(instrument)) s.res.write(`${JSON.stringify(line)}\n`);
  }

  /** Cuts every open stream mid-body, as a network failure would. */
  dropAll(): void {
    for (const s of this.streams) s.res.socket?.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
