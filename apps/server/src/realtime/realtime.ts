import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { parse as parseCookie } from 'cookie';
import type { Db } from '../db/client.ts';
import { resolveSession, SESSION_COOKIE } from '../modules/auth/sessions.ts';

/** Server side of the realtime channel. Rooms: `user:{id}` per signed-in user, `staff` for staff roles. */
export interface Realtime {
  /** Sends an event to one user's sockets; the spec's per-user event is named `user:{id}`. */
  toUser(userId: number, event: string, payload: unknown): void;
  broadcast(event: string, payload: unknown): void;
  toStaff(event: string, payload: unknown): void;
  /** Runs for every newly connected socket (e.g. to send it the current market status); returns the unsubscribe. */
  onConnect(listener: (socket: Socket) => void): () => void;
  attach(server: HttpServer, db: Db): void;
  close(): Promise<void>;
}

export function createRealtime(): Realtime {
  let io: Server | null = null;
  const connectListeners = new Set<(socket: Socket) => void>();
  return {
    toUser(userId, event, payload) {
      io?.to(`user:${userId}`).emit(event, payload);
    },
    broadcast(event, payload) {
      io?.emit(event, payload);
    },
    toStaff(event, payload) {
      io?.to('staff').emit(event, payload);
    },
    onConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    attach(server, db) {
      // No per-message deflate (also engine.io's default): a broadcast is framed once and the same bytes go to every
      // socket, which compressing per connection would undo.
      io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false }, perMessageDeflate: false });
      // Cookie auth on the handshake: anonymous sockets get public events only.
      io.use(async (socket: Socket, next) => {
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
        if (socket.data.roleId && socket.data.roleId !== 3) socket.join('staff');
        for (const listener of connectListeners) listener(socket);
      });
    },
    async close() {
      await io?.close();
      io = null;
    },
  };
}
