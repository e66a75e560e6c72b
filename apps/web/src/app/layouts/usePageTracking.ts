import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { getSocket } from '../../api/realtime.ts';

/**
 * Reports each page the customer opens (path and query) on the realtime channel; the server relays it to the staff
 * watching this customer (the Tracking tab of Edit Customer). A page opened before the socket connected is sent once
 * it connects.
 */
export function usePageTracking(enabled: boolean): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!enabled) return;
    const socket = getSocket();
    const url = `${pathname}${search}`;
    const send = () => socket.emit('track', { url });
    if (socket.connected) {
      send();
      return;
    }
    socket.once('connect', send);
    return () => {
      socket.off('connect', send);
    };
  }, [enabled, pathname, search]);
}
