import { useState } from 'react';
import type { PresenceEvent } from '@platform/domain';
import { useRealtimeEvent } from '../../../api/realtime.ts';

/**
 * Customers' online state as the server last reported it (`presence` events to admins and the customer's manager);
 * `online(id, fallback)` answers the live state once an event arrived, else what the list loaded.
 */
export function usePresence(): (userId: number, loaded: boolean) => boolean {
  const [live, setLive] = useState<ReadonlyMap<number, boolean>>(new Map());
  useRealtimeEvent<PresenceEvent>('presence', (e) => {
    if (typeof e?.userId !== 'number') return;
    setLive((prev) => new Map(prev).set(e.userId, Boolean(e.online)));
  });
  return (userId, loaded) => live.get(userId) ?? loaded;
}
