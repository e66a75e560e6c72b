import Fuse from 'fuse.js';
import type { InstrumentDto } from '@platform/domain';

/** Fuzzy instrument search over name, base, quote and alias, threshold 0.3 (spec §2, §9). */
export function createInstrumentSearch(instruments: readonly InstrumentDto[]): (query: string) => InstrumentDto[] {
  const fuse = new Fuse(instruments, { keys: ['name', 'base', 'quote', 'alias'], threshold: 0.3 });
  return (query) => {
    const q = query.trim();
    return q ? fuse.search(q).map((r) => r.item) : [];
  };
}
