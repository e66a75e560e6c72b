import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { parse as parseCookie } from 'cookie';
import type { Db } from '../db/client.ts';
import { resolveSession, SESSION_COOKIE } from '../modules/auth/sessions.ts';
import { appOrigins, isCrossSite } from '../lib/security.ts';
import { addBaselineHeaders } from '../lib/headers.ts';
import { createFanOut, type FanOut } from './fan-out.ts';
import { countClients } from '../lib/metrics.ts';
import { createAdapter } from '@socket.io/redis-adapter';
import type { ClusterBus } from '../cluster/bus.ts';

/**
 * A socket with this much not yet handed to the kernel skips catch-up broadcasts (price batches) until it has
 * drained. The kernel's own send buffer (hundreds of KB to MBs, tuned per connection) is full by then, so the client
 * has stopped reading; 64 KiB is some 25 batches of 20 prices.
 */
export const SLOW_BACKLOG_BYTES = 64 * 1024;

/** Server side of the realtime channel. Rooms: `user:{id}` per signed-in user, `admins` for the admin role. */
export interface Realtime {
  /** Sends an event to one user's sockets; the spec's per-user event is named `user:{id}`. */
  toUser(userId: number, event: string, payload: unknown): void;
  /**
   * Sends an event to every socket, encoded once. With `catchUp` the event is a delta that later ones build on
   * (price batches): a socket too far behind (SLOW_BACKLOG_BYTES) skips it, and the first one it gets once it has
   * drained is replaced by `catchUp()`, the whole current state.
   */
  broadcast(event: string, payload: unknown, opts?: { catchUp?: () => unknown }): void;
  /** Sends an event to signed-in admins only (provider heartbeats for the API Status screen, role 1). */
  toAdmins(event: string, payload: unknown): void;
  /** Sends an event to every socket in a room (e.g. `watch:{userId}`, staff following a customer's pages). */
  toRoom(room: string, event: string, payload: unknown): void;
  /**
   * Which of these users have a connected socket now, on any instance (with the Redis adapter the rooms are
   * asked across instances). This is the presence the back office shows as the online dot.
   */
  onlineUsers(userIds: readonly number[]): Promise<Set<number>>;
  /** The signed-in users with a socket in a room now, on any instance (e.g. `customers`: every customer online). */
  usersInRoom(room: string): Promise<Set<number>>;
  /** Closes every socket of a user (on every instance), e.g. when the account is deleted or deactivated. */
  disconnectUser(userId: number): void;
  /** Runs for every newly connected socket (e.g. to send it the current market status); returns the unsubscribe. */
  onConnect(listener: (socket: Socket) => void): () => void;
  attach(server: HttpServer, db: Db): void;
  close(): Promise<void>;
}

/** `appUrl`: the app's public address; a handshake from any other site is refused (cross-site WebSocket hijacking). */
export function createRealtime(appUrl = 'http://localhost', bus?: ClusterBus): Realtime {
  const allowedOrigins = appOrigins(appUrl);
  let io: Server | null = null;
  let fanOut: FanOut | null = null;
  const connectListeners = new Set<(socket: Socket) => void>();
  let uncount = (): void => undefined;
  return {
    toUser(userId, event, payload) {
      io?.to(`user:${userId}`).emit(event, payload);
    },
    broadcast(event, payload, opts) {
      fanOut?.(event, payload, opts?.catchUp);
    },
    toAdmins(event, payload) {
      io?.to('admins').emit(event, payload);
    },
    toRoom(room, event, payload) {
      io?.to(room).emit(event, payload);
    },
    async onlineUsers(userIds) {
      const online = new Set<number>();
      if (!io || userIds.length === 0) return online;
      const sockets = await io.in(userIds.map((id) => `user:${id}`)).fetchSockets();
      for (const s of sockets) if (typeof s.data.userId === 'number') online.add(s.data.userId);
      return online;
    },
    async usersInRoom(room) {
      const users = new Set<number>();
      if (!io) return users;
      for (const s of await io.in(room).fetchSockets()) if (typeof s.data.userId === 'number') users.add(s.data.userId);
      return users;
    },
    disconnectUser(userId) {
      io?.in(`user:${userId}`).disconnectSockets(true);
    },
    onConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    attach(server, db) {
      // No per-message deflate (also engine.io's default): a broadcast is framed once and the same bytes go to every
      // socket, which compressing per connection would undo.
      io = new Server(server, {
        path: '/socket.io',
        serveClient: false,
        cors: { origin: false },
        perMessageDeflate: false,
      });
      // Several instances: rooms (user:{id}, admins, track:{id}) span them all through Redis. Price batches do not
      // need it: each instance gets the leader's prices and writes them to its own clients.
      if (bus?.adapterClients)
        io.adapter(createAdapter(bus.adapterClients.pub, bus.adapterClients.sub, { key: bus.adapterClients.key }));
      fanOut = createFanOut(io, SLOW_BACKLOG_BYTES);
      const server_ = io;
      uncount = countClients(() => server_.engine.clientsCount);
      // Engine.IO takes over the server's request listeners (calling them for other paths): its own answers get the
      // baseline security headers from a listener placed in front of it.
      addBaselineHeaders(server);
      // Cookie auth on the handshake: anonymous sockets get public events only.
      io.use(async (socket: Socket, next) => {
        // A page on another site must not open a socket riding the visitor's cookie (CORS does not apply to WebSockets).
        const own = `${socket.handshake.secure ? 'https' : 'http'}://${socket.handshake.headers.host}`;
        if (isCrossSite(socket.handshake.headers, allowedOrigins, own))
          return next(new Error('Cross-site connection refused'));
        try {
          const token = parseCookie(socket.handshake.headers.cookie ?? '')[SESSION_COOKIE];
          const auth = token ? await resolveSession(db, token, socket.handshake.address) : null;
          socket.data.userId = auth?.user.id ?? null;
          socket.data.roleId = auth?.user.roleId ?? null;
          next();
        } catch (err) {
          next(err as Error);
        }
      });
      io.on('connection', (socket) => {
        if (socket.data.userId) socket.join(`user:${socket.data.userId}`);
        if (socket.data.roleId === 1) socket.join('admins');
        for (const listener of connectListeners) listener(socket);
      });
    },
    async close() {
      uncount();
      await io?.close();
      io = null;
      fanOut = null;
    },
  };
}
