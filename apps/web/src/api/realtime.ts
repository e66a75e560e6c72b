import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';

/**
 * One Socket.IO connection for the whole app. The server authenticates the handshake with the session
 * cookie, so the socket is opened lazily (first subscriber) and reopened after sign-in or sign-out.
 */
let socket: Socket | null = null;

export function getSocket(): Socket {
  if (!socket) socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
  return socket;
}

/** Re-handshakes so the server joins the socket to the rooms of the user now signed in. */
export function reconnectRealtime(): void {
  if (!socket) return;
  socket.disconnect();
  socket.connect();
}

export function disconnectRealtime(): void {
  socket?.disconnect();
}

/**
 * Subscribes to one realtime event while the component is mounted. The latest handler is always
 * called, so callers need not memoise it. A null event subscribes to nothing.
 */
export function useRealtimeEvent<T = unknown>(event: string | null | undefined, handler: (payload: T) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!event) return;
    const s = getSocket();
    const listener = (payload: T) => ref.current(payload);
    s.on(event, listener);
    return () => {
      s.off(event, listener);
    };
  }, [event]);
}
