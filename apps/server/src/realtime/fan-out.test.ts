import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server, type ServerOptions, type Socket as ServerSocket } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { createFanOut } from './fan-out.ts';

let http: HttpServer | null = null;
let io: Server | null = null;
const clients: Socket[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await io?.close();
  io = http = null;
});

/** A Socket.IO server on its own port, configured as the product's unless `opts` say otherwise. */
async function serve(opts: Partial<ServerOptions> = {}): Promise<{ io: Server; url: string }> {
  http = createServer();
  io = new Server(http, { perMessageDeflate: false, ...opts });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return { io, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

/** A real socket.io-client recording every event, and the server's side of its connection. */
async function client(server: Server, url: string, transport: 'websocket' | 'polling') {
  const serverSide = new Promise<ServerSocket>((resolve) => server.once('connection', resolve));
  const socket = connect(url, { transports: [transport], forceNew: true, reconnection: false });
  clients.push(socket);
  const events: Array<[string, unknown]> = [];
  socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { events, server: await serverSide };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

/** Price-like payloads: multi-byte characters (frame length counts bytes), and sizes for each frame length form. */
const payloads = [
  [{ name: 'EUR_USD', bids: 1.0751, asks: 1.0753, closeoutBid: 1.075, closeoutAsk: 1.0754, time: 1_700_000_000_123 }],
  [{ note: 'Préis €, 価格 📈', n: 0 }],
  Array.from({ length: 40 }, (_, n) => ({ name: `I${n}`, bids: n / 7, time: n })), // 126..65535 bytes
  [{ big: 'x'.repeat(70_000) }], // over 65535 bytes
];

describe('fan-out fast path', () => {
  it('delivers the same events and payloads to a real websocket client, written directly', async () => {
    const { io, url } = await serve();
    const c = await client(io, url, 'websocket');
    const fanOut = createFanOut(io, 64 * 1024);
    for (const p of payloads) expect(fanOut('priceUpdate', p)).toEqual({ direct: 1, emitted: 0, skipped: 0 });
    await until(() => c.events.length === payloads.length);
    expect(c.events).toEqual(payloads.map((p) => ['priceUpdate', p]));
  });

  it('keeps the order of packets: behind what engine.io still queues, it takes the ordinary emit', async () => {
    const { io, url } = await serve();
    const c = await client(io, url, 'websocket');
    const fanOut = createFanOut(io, 64 * 1024);
    // The first emit goes out at once and leaves the transport busy until its write completes; the second waits in
    // engine.io's write buffer, so the broadcast after it must not be written past it.
    c.server.emit('first', 1);
    c.server.emit('second', 2);
    expect(fanOut('third', 3)).toEqual({ direct: 0, emitted: 1, skipped: 0 });
    await until(() => c.events.length === 3);
    // Nothing queued now: written directly, still after everything sent before it.
    c.server.emit('fourth', 4);
    expect(fanOut('fifth', 5)).toEqual({ direct: 1, emitted: 0, skipped: 0 });
    await until(() => c.events.length === 5);
    expect(c.events).toEqual([
      ['first', 1],
      ['second', 2],
      ['third', 3],
      ['fourth', 4],
      ['fifth', 5],
    ]);
  });

  it('reaches a long-polling client through the ordinary emit', async () => {
    const { io, url } = await serve();
    const polling = await client(io, url, 'polling');
    const ws = await client(io, url, 'websocket');
    const fanOut = createFanOut(io, 64 * 1024);
    expect(fanOut('priceUpdate', payloads[1])).toEqual({ direct: 1, emitted: 1, skipped: 0 });
    await until(() => polling.events.length === 1 && ws.events.length === 1);
    expect(polling.events).toEqual([['priceUpdate', payloads[1]]]);
    expect(ws.events).toEqual(polling.events);
  });

  it('skips a delta for a socket that is behind, then sends it the whole state instead of the next one', async () => {
    const { io, url } = await serve();
    const c = await client(io, url, 'websocket');
    const fanOut = createFanOut(io, 1_000);
    const whole = () => ({ all: true });
    // 2,000 bytes left waiting in engine.io's write buffer: over this fan-out's 1,000-byte limit.
    c.server.emit('first', 1);
    c.server.emit('second', 'y'.repeat(2_000));
    expect(fanOut('delta', { n: 1 }, whole)).toEqual({ direct: 0, emitted: 0, skipped: 1 });
    await until(() => c.events.length === 2); // engine.io's buffer was flushed: the client got what it held
    expect(fanOut('delta', { n: 2 }, whole)).toEqual({ direct: 0, emitted: 1, skipped: 0 });
    expect(fanOut('delta', { n: 3 }, whole)).toEqual({ direct: 1, emitted: 0, skipped: 0 });
    await until(() => c.events.length === 4);
    expect(c.events.slice(2)).toEqual([
      ['delta', { all: true }],
      ['delta', { n: 3 }],
    ]);
  });

  it('leaves everything to Socket.IO when the server compresses messages', async () => {
    const { io, url } = await serve({ perMessageDeflate: { threshold: 0 } });
    const c = await client(io, url, 'websocket');
    const fanOut = createFanOut(io, 64 * 1024);
    expect(fanOut('priceUpdate', payloads[2])).toEqual({ direct: 0, emitted: 1, skipped: 0 });
    await until(() => c.events.length === 1);
    expect(c.events).toEqual([['priceUpdate', payloads[2]]]);
  });

  it("writes a large broadcast in slices and keeps every socket's events in order across broadcasts", async () => {
    const { io, url } = await serve();
    const all: Array<Awaited<ReturnType<typeof client>>> = [];
    // One at a time, so each client is paired with its own server-side socket.
    for (let i = 0; i < 200; i++) all.push(await client(io, url, 'websocket'));
    // A zero budget forces a pause after every 64 sockets, as a long broadcast would.
    const fanOut = createFanOut(io, 64 * 1024, 0);
    const first = fanOut('priceUpdate', { n: 1 });
    // The call returns after the first slice; the rest follows on later turns of the event loop.
    expect(first.direct).toBe(64);
    const second = fanOut('priceUpdate', { n: 2 });
    // Queued behind the first: nothing written yet, so no socket can get it before the first.
    expect(second).toEqual({ direct: 0, emitted: 0, skipped: 0 });
    all[150].server.disconnect(true);
    fanOut('priceUpdate', { n: 3 });
    await until(() => all.every((c, i) => i === 150 || c.events.length === 3));
    for (const [i, c] of all.entries()) {
      if (i === 150) continue;
      expect(c.events).toEqual([
        ['priceUpdate', { n: 1 }],
        ['priceUpdate', { n: 2 }],
        ['priceUpdate', { n: 3 }],
      ]);
    }
    // The socket that left before its slice came is passed over, by the first broadcast too.
    expect(first.direct + first.emitted).toBe(199);
    expect(second.direct + second.emitted).toBe(199);
  });
});
