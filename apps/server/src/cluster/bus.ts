import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** What the instances of one deployment tell each other. */
export type BusChannel = 'prices' | 'risk' | 'cache' | 'leader' | 'simulator' | 'alerts' | 'pending';

/**
 * Messages between the instances of a deployment (Redis pub/sub). Without Redis there is one instance and publishing
 * reaches nobody. An instance never receives its own messages.
 */
export interface ClusterBus {
  readonly enabled: boolean;
  /** This process's name among the instances (logs, metrics). */
  readonly instanceId: string;
  publish(channel: BusChannel, message: unknown): void;
  subscribe(channel: BusChannel, handler: (message: unknown) => void): () => void;
  /** Redis connections for the Socket.IO adapter (publish and subscribe), null without Redis. */
  readonly adapterClients: { pub: Redis; sub: Redis; key: string } | null;
  /** A Redis connection for commands (rate limits, counters), null without Redis. */
  readonly redis: Redis | null;
  close(): Promise<void>;
}

export const localBus = (): ClusterBus => ({
  enabled: false,
  instanceId: 'single',
  publish() {},
  subscribe: () => () => undefined,
  adapterClients: null,
  redis: null,
  close: async () => undefined,
});

/** Connects to Redis; fails at start when it cannot be reached, so a misconfigured instance never serves alone. */
export async function createBus(redisUrl: string | undefined, clusterName = 'platform'): Promise<ClusterBus> {
  if (!redisUrl) return localBus();
  const PREFIX = `${clusterName}:`;
  const instanceId = randomBytes(6).toString('hex');
  const connect = async (): Promise<Redis> => {
    const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    r.on('error', (err) => console.error(`Redis: ${err.message}`));
    await r.connect();
    return r;
  };
  const [pub, sub, adapterPub, adapterSub] = await Promise.all([connect(), connect(), connect(), connect()]);
  const handlers = new Map<string, Set<(message: unknown) => void>>();
  sub.on('message', (channel: string, raw: string) => {
    let envelope: { from: string; message: unknown };
    try {
      envelope = JSON.parse(raw) as { from: string; message: unknown };
    } catch {
      return;
    }
    if (envelope.from === instanceId) return;
    for (const h of handlers.get(channel) ?? []) {
      try {
        h(envelope.message);
      } catch (err) {
        console.error(`cluster message on ${channel} failed`, err);
      }
    }
  });
  return {
    enabled: true,
    instanceId,
    publish(channel, message) {
      void pub
        .publish(PREFIX + channel, JSON.stringify({ from: instanceId, message }))
        .catch((err: Error) => console.error(`Redis publish: ${err.message}`));
    },
    subscribe(channel, handler) {
      const key = PREFIX + channel;
      let set = handlers.get(key);
      if (!set) {
        set = new Set();
        handlers.set(key, set);
        void sub.subscribe(key);
      }
      set.add(handler);
      return () => set.delete(handler);
    },
    adapterClients: { pub: adapterPub, sub: adapterSub, key: `${clusterName}:socket.io` },
    redis: pub,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit(), adapterPub.quit(), adapterSub.quit()]);
    },
  };
}
