import { useEffect, useMemo, useState } from 'react';
import type { InstrumentDto } from '@platform/domain';
import type { createInstrumentSearch } from './search.ts';

type CreateSearch = typeof createInstrumentSearch;

// The fuzzy search library stays out of the dashboard's first load: it comes when the search box is first focused
// (or typed in), once.
let fuzzy: Promise<CreateSearch> | null = null;
export function preloadInstrumentSearch(): Promise<CreateSearch> {
  fuzzy ??= import('./search.ts').then((m) => m.createInstrumentSearch);
  return fuzzy;
}

/** Until the fuzzy search has loaded: the instruments whose name, base, quote or alias contain the query. */
const bare = (s: string) => s.toLowerCase().replace(/[\s/_-]/g, '');
export const plainInstrumentSearch: CreateSearch = (instruments) => (query) => {
  const q = bare(query);
  if (!q) return [];
  return instruments.filter((i) => [i.name, i.base, i.quote, i.alias ?? ''].some((s) => bare(s).includes(q)));
};

/** The instruments matching the query (spec §2, §9): at once with a plain match, then fuzzy once that has loaded. */
export function useInstrumentSearch(instruments: readonly InstrumentDto[], query: string): InstrumentDto[] {
  const [create, setCreate] = useState<{ fn: CreateSearch } | null>(null);
  const active = query.trim() !== '';
  useEffect(() => {
    if (!active || create) return;
    let live = true;
    void preloadInstrumentSearch().then((fn) => live && setCreate({ fn }));
    return () => {
      live = false;
    };
  }, [active, create]);
  const search = useMemo(() => (create?.fn ?? plainInstrumentSearch)(instruments), [create, instruments]);
  return useMemo(() => search(query), [search, query]);
}
