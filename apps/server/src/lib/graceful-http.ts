import type { Server, ServerResponse } from 'node:http';
import net from 'node:net';

export interface HttpDrain {
  /**
   * Stops accepting connections and answers every request that reached the server, each answer closing its
   * connection; kept-alive connections with nothing to answer are closed. Resolves true once every connection is
   * closed, or false at `deadlineMs`, when the rest are cut.
   */
  drain(opts?: { settleMs?: number; deadlineMs?: number; settled?: () => Promise<void> }): Promise<boolean>;
}

/**
 * A graceful stop for a Node HTTP server behind a load balancer that keeps connections alive. Node's own close()
 * closes every idle connection at once, including one whose request is already on its way (the client gets
 * ECONNRESET, and a proxy answers 502 without retrying a POST), and leaves kept-alive connections open until their
 * clients close them. Here the listener stops first; a request already sent is read within `settleMs` and answered
 * with `Connection: close`, as is every request still in flight; then `settled` runs (close the websockets there:
 * Socket.IO's close closes the server's idle connections too) and idle connections are closed.
 */
export function drainable(server: Server): HttpDrain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    async drain({ settleMs = 200, deadlineMs = 10_000, settled } = {}) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      // net's close, not http's: it stops the listener without closing idle connections, and calls back once every
      // connection has ended.
      let done = false;
      const closed = new Promise<void>((resolve) =>
        net.Server.prototype.close.call(server, () => {
          done = true;
          resolve();
        }),
      );
      const until = Date.now() + deadlineMs;
      const wait = (ms: number) => Promise.race([closed, new Promise<void>((r) => setTimeout(r, ms))]);
      // Bytes a client sent just before the stop are read and parsed meanwhile: their connection is no longer idle.
      await wait(settleMs);
      await settled?.();
      while (!done && Date.now() < until) {
        server.closeIdleConnections();
        await wait(50);
      }
      if (done) return true;
      server.closeAllConnections();
      return false;
    },
  };
}
