import type { BusChannel, ClusterBus } from '../src/cluster/bus.ts';
import type { Leadership } from '../src/cluster/leader.ts';

/** Two instances' buses in one process: what one publishes the other hears, as JSON, as over Redis. */
export function memoryBuses(): [ClusterBus, ClusterBus] {
  const handlers = [new Map<BusChannel, Set<(m: unknown) => void>>(), new Map<BusChannel, Set<(m: unknown) => void>>()];
  const bus = (me: number): ClusterBus => ({
    enabled: true,
    instanceId: `i${me}`,
    publish(channel, message) {
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      for (const h of handlers[1 - me].get(channel) ?? []) h(copy);
    },
    subscribe(channel, handler) {
      const set = handlers[me].get(channel) ?? new Set();
      handlers[me].set(channel, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    adapterClients: null,
    redis: null,
    close: async () => undefined,
  });
  return [bus(0), bus(1)];
}

/** A leadership that never leads: the second instance of a test. */
export const follower = (): Leadership => ({
  isLeader: false,
  onChange() {},
  ready: async () => undefined,
  claim() {},
  close: async () => undefined,
});
