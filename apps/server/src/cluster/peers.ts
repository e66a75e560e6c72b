/**
 * Tells the other instances to drop what they cached of a change made here. Caches are module-level (sessions,
 * settings, translations), so is this: the bus is plugged in at boot; without Redis it tells nobody.
 */
export type PeerCacheMessage =
  | { kind: 'sessions'; userId: number }
  | { kind: 'settings' }
  | { kind: 'translations'; code?: string };

let publisher: (m: PeerCacheMessage) => void = () => undefined;

export function tellPeers(m: PeerCacheMessage): void {
  publisher(m);
}

export function setPeerPublisher(publish: (m: PeerCacheMessage) => void): void {
  publisher = publish;
}
