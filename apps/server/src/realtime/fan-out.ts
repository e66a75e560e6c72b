/**
 * The broadcast fast path, and the one place that reaches past Socket.IO's public API (written against socket.io
 * 4.8, engine.io 6.6, ws 8; fan-out.test.ts proves real clients, websocket and long-polling, still get the same
 * events).
 *
 * Why: Socket.IO's own broadcast encodes a packet once, but then takes every socket through its client, engine.io's
 * socket (a packet object, four events, a write buffer, a flush) and the transport, which writes header and body
 * of the frame apart: 12.6 µs per socket per broadcast on the 2-core benchmark machine, where the kernel's loopback
 * write alone costs ~9.5 µs. Here the event is encoded once, framed once as the WebSocket text frame carrying the
 * Engine.IO message packet ("4" + the Socket.IO packet), and those bytes are written to each client's ws socket in
 * one write: ~9.7 µs per socket, nearly all of it the kernel's (bench/fanout.ts).
 *
 * A socket takes the fast path only when its transport is an open websocket and engine.io holds nothing queued for
 * it (its write buffer is empty). Whatever engine.io sent earlier already went down to that ws socket, so writing
 * there keeps every client's packets in order. Other sockets (long-polling, an upgrade in progress, packets
 * waiting) get the ordinary Socket.IO emit, encoded once for all of them. So does everyone when the server uses
 * per-message deflate (ws may hold messages back while it compresses, and a frame written past them would overtake
 * them) or connection state recovery (it numbers and stores broadcast packets). onAnyOutgoing listeners are not
 * called for fast-path writes; the product registers none.
 */
import type { Server, Socket } from 'socket.io';
import type { WebSocket } from 'ws';

/** The members of engine.io's socket and websocket transport, and of ws, used here; private or untyped in their declarations. */
interface EngineSocket {
  readyState: string;
  /** Packets waiting for the transport to be writable again, in order. */
  writeBuffer: ReadonlyArray<{ data?: string | Buffer }>;
  transport: { name: string; socket?: WebSocket & { _sender: WsSender } };
}
/** ws's frame writer: `sendFrame` writes ready-made frame bytes to the TCP socket, as engine.io does for pre-encoded frames. */
interface WsSender {
  sendFrame(list: Buffer[]): void;
}

/**
 * The event as the WebSocket frame carrying Engine.IO's message packet, or null when Socket.IO would split it
 * (binary attachments).
 */
function encodeFrame(io: Server, event: string, payload: unknown): Buffer | null {
  // 2 = socket.io-parser's PacketType.EVENT; '/' the main namespace, the one io.emit() reaches.
  const packets = io.encoder.encode({ type: 2, nsp: '/', data: [event, payload] });
  return packets.length === 1 && typeof packets[0] === 'string' ? textFrame(Buffer.from(`4${packets[0]}`)) : null;
}

/** Bytes this socket has not yet handed to the kernel: in ws's and the TCP socket's buffers, and queued in engine.io. */
function backlog(conn: EngineSocket): number {
  let bytes = conn.transport.socket?.bufferedAmount ?? 0;
  for (const p of conn.writeBuffer) bytes += p.data?.length ?? 0;
  return bytes;
}

export interface FanOutCounts {
  /** Sockets written to directly. */
  direct: number;
  /** Sockets that got the ordinary Socket.IO emit. */
  emitted: number;
  /** Sockets that skipped a catch-up broadcast because they were behind. */
  skipped: number;
}

/** A broadcast to every socket of the main namespace; see createFanOut. */
export type FanOut = (event: string, payload: unknown, catchUp?: () => unknown) => FanOutCounts;

/**
 * Broadcasts over `io`'s main namespace. With `catchUp` the event is a delta that later ones build on (price
 * batches): a socket with `slowBytes` or more still waiting to go out skips it, so a client that does not read
 * cannot make the server queue without bound, and the first such event it gets once it has caught up is replaced
 * by `catchUp()` (the whole current state), so it is not left with what it skipped missing.
 *
 * A broadcast to many sockets is written in slices of at most `sliceMs` of work, the rest continuing on the next
 * turn of the event loop, so orders and other requests arriving meanwhile wait ~`sliceMs`, not the whole broadcast
 * (5,000 sockets take ~50 ms). Broadcasts queue behind an unfinished one, so every socket still gets them in order.
 * The counts returned are those of the part written at once (all of it for a small audience).
 */
export function createFanOut(io: Server, slowBytes: number, sliceMs = 8): FanOut {
  /** Sockets that skipped a delta and are owed the whole state. */
  const behind = new WeakSet<Socket>();
  const fast = !io.engine.opts.perMessageDeflate && !io._opts.connectionStateRecovery;
  /** Unfinished broadcasts, oldest first; each call writes until the deadline and says whether it is done. */
  const queue: Array<(deadline: number) => boolean> = [];
  let scheduled = false;

  const pump = (): void => {
    scheduled = false;
    const deadline = performance.now() + sliceMs;
    while (queue.length > 0) {
      if (!queue[0](deadline)) return schedule();
      queue.shift();
    }
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  /** One broadcast over the sockets connected when it began. */
  const job = (event: string, payload: unknown, catchUp: (() => unknown) | undefined, counts: FanOutCounts) => {
    const frame = fast ? encodeFrame(io, event, payload) : null;
    const sockets = [...io.of('/').sockets.values()];
    let next = 0;
    return (deadline: number): boolean => {
      const viaEmit: string[] = [];
      const owed: string[] = [];
      const from = next;
      while (next < sockets.length) {
        // The clock is read every 64 sockets (~0.6 ms of writes), not for each one; a slice always makes progress.
        if (next > from && (next - from) % 64 === 0 && performance.now() > deadline) break;
        const socket = sockets[next++];
        if (!socket.connected) continue;
        const conn = socket.conn as unknown as EngineSocket;
        if (catchUp) {
          if (backlog(conn) >= slowBytes) {
            behind.add(socket);
            counts.skipped++;
            continue;
          }
          if (behind.delete(socket)) {
            owed.push(socket.id);
            continue;
          }
        }
        const ws = conn.transport.socket;
        if (
          frame &&
          conn.writeBuffer.length === 0 &&
          conn.transport.name === 'websocket' &&
          conn.readyState === 'open' &&
          ws?.readyState === 1
        ) {
          // One write of the whole frame: ws.send() would frame it again per socket and write header and body apart.
          ws._sender.sendFrame([frame]);
          counts.direct++;
        } else viaEmit.push(socket.id);
      }
      // Each socket is in the room named by its id, so these reach exactly the sockets listed.
      if (viaEmit.length > 0) io.to(viaEmit).emit(event, payload);
      if (owed.length > 0) io.to(owed).emit(event, catchUp!());
      counts.emitted += viaEmit.length + owed.length;
      return next >= sockets.length;
    };
  };

  return (event, payload, catchUp) => {
    const counts = { direct: 0, emitted: 0, skipped: 0 };
    const run = job(event, payload, catchUp, counts);
    // Behind an unfinished broadcast it waits its turn; otherwise it starts now and continues later if it must.
    if (queue.length > 0 || !run(performance.now() + sliceMs)) {
      queue.push(run);
      schedule();
    }
    return counts;
  };
}

/** An unmasked, final WebSocket text frame (RFC 6455 §5.2), as a server sends it. */
function textFrame(body: Buffer): Buffer {
  const n = body.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (n < 126) frame[1] = n;
  else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  body.copy(frame, head);
  return frame;
}
