import type { Server, ServerResponse } from 'node:http';
import net from 'node:net';

export interface HttpDrain {
  /**
   * Stops accepting connections and answers every request that reached the server, each answer closing its
   * connection; connections with nothing to answer are closed once quiet for `quietMs`. Resolves true once every
   * connection is closed, or false at `deadlineMs`, when the rest are cut. `settled` runs once the listener is closed
   * (close the websockets there).
   */
  drain(opts?: { quietMs?: number; deadlineMs?: number; settled?: () => Promise<void> }): Promise<boolean>;
}

/**
 * A graceful stop for a Node HTTP server behind a load balancer that keeps connections alive. Node's own close()
 * closes every idle connection at once, including one whose request is already on its way (the client gets
 * ECONNRESET, and a proxy answers 502 without retrying a POST), and leaves kept-alive connections open until their
 * clients close them. Here the listener stops first; every request in flight, and every request that arrives on an
 * open connection, is answered with `Connection: close`; a connection with no request in hand is closed only after
 * `quietMs` without one (a new connection counts from its opening), from the loop's check phase, after its I/O phase
 * has read whatever bytes already arrived.
 */
export function drainable(server: Server): HttpDrain {
  const inFlight = new Set<ServerResponse>();
  const sockets = new Map<net.Socket, { busy: number; since: number }>();
  let draining = false;
  server.on('connection', (socket: net.Socket) => {
    sockets.set(socket, { busy: 0, since: Date.now() });
    socket.once('close', () => sockets.delete(socket));
  });
  server.prependListener('request', (req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    const state = sockets.get(req.socket);
    if (state) state.busy++;
    res.once('close', () => {
      inFlight.delete(res);
      if (state) {
        state.busy--;
        state.since = Date.now();
      }
    });
  });
  const check = () => new Promise<void>((r) => setImmediate(r));
  return {
    async drain({ quietMs = 500, deadlineMs = 10_000, settled } = {}) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      // Node's close() (Socket.IO's close calls it) would close idle connections at once: the loop below does it.
      server.closeIdleConnections = () => undefined;
      // The listener closes after the loop's I/O phase has accepted the connections waiting: closing it drops those
      // with a reset. A few passes over 250 ms rather than one: on a loaded machine a client's connection may still be
      // on its way at the first pass (its requests are then answered with `Connection: close` like the others).
      for (const at = Date.now(); Date.now() - at < 250; ) {
        await new Promise<void>((r) => setTimeout(r, 20));
        await check();
      }
      // net's close, not http's: it stops the listener without closing idle connections, and calls back once every
      // connection has ended.
      let done = false;
      const closed = new Promise<void>((resolve) =>
        net.Server.prototype.close.call(server, () => {
          done = true;
          resolve();
        }),
      );
      // Not awaited before the loop: Socket.IO's close waits for the listener's close callback, which comes only once
      // the loop below has closed the idle connections.
      const settling = Promise.resolve(settled?.());
      const until = Date.now() + deadlineMs;
      while (!done && Date.now() < until) {
        await Promise.race([closed, new Promise<void>((r) => setTimeout(r, 50))]);
        // In the check phase: bytes that arrived are parsed (their connection busy) before anything is closed here.
        await check();
        const now = Date.now();
        for (const [socket, s] of sockets) if (s.busy === 0 && now - s.since >= quietMs) socket.destroy();
      }
      const drained = done;
      if (!drained) server.closeAllConnections();
      await settling;
      return drained;
    },
  };
}
