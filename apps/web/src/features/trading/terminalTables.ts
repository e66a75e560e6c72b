import { useCallback, useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import {
  dec,
  lotsOf,
  type CategoryName,
  type Decimal,
  type InstrumentDto,
  type LotStateResponse,
} from '@platform/domain';
import { apiGet } from '../../api/client.ts';
import { useCurrentUser } from '../../api/hooks.ts';
import { tradingKeys, useInstruments } from './api.ts';

/** An order size as the terminal's lists show it: in lots where its category trades in lots, else in units. */
export interface AmountText {
  text: string;
  /** Lots: the units it stands for, for the hover text. */
  units: string | null;
}

/** Lots with two decimals at least (0.10, 1.00, 0.015) and five at most. */
export function lotsText(lots: Decimal): string {
  const rounded = lots.toDecimalPlaces(5);
  return rounded.toFixed(Math.max(2, rounded.decimalPlaces()));
}

/** How a category's sizes show: in lots, in units, or not known yet (its lot mode is loading). */
export type SizeMode = 'lot' | 'amount' | 'loading';

/**
 * How each of `categories` shows its sizes: the lot mode of the order dialog (GET /dashboard/lot-state/{category}, the
 * same query and cache); units when the call fails.
 */
export function useSizeModes(categories: readonly CategoryName[]): ReadonlyMap<CategoryName, SizeMode> {
  const unique = [...new Set(categories)].sort();
  const states = useQueries({
    queries: unique.map((category) => ({
      queryKey: tradingKeys.lotState(category),
      queryFn: () => apiGet<LotStateResponse>(`/dashboard/lot-state/${category}`),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const modes = unique.map((category, i): [CategoryName, SizeMode] => {
    const state = states[i];
    return [category, state?.isPending ? 'loading' : state?.data?.lotState === 'lot' ? 'lot' : 'amount'];
  });
  const key = modes.map((m) => m.join(':')).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the map changes only when a mode does
  return useMemo(() => new Map(modes), [key]);
}

/**
 * The size of a row (units, its instrument's name and category) as text: `lotsOf` with the instrument's contract size
 * where the category trades in lots; blank while its lot mode loads (rather than units that turn into lots).
 */
export function useAmountText(categories: readonly CategoryName[]) {
  const modes = useSizeModes(categories);
  const { data: instruments } = useInstruments();
  // The instrument's own contract size when staff set one (contract_size), else its category's lot.
  const byName = useMemo(
    () => new Map((instruments ?? []).map((i) => [i.name, i as InstrumentDto & { contract_size?: string | null }])),
    [instruments],
  );
  return useCallback(
    (amount: string, instrument: string, category: CategoryName): AmountText => {
      const mode = modes.get(category) ?? 'loading';
      if (mode === 'loading') return { text: '', units: null };
      if (mode === 'amount') return { text: dec(amount).toString(), units: null };
      const contractSize = byName.get(instrument)?.contract_size ?? null;
      return { text: lotsText(lotsOf(amount, { category, contractSize })), units: dec(amount).toString() };
    },
    [modes, byName],
  );
}

export type AmountFormat = ReturnType<typeof useAmountText>;

/** Which list a column choice is remembered for: each user of the browser keeps their own. */
export function useTableKey(list: string): string {
  const { data } = useCurrentUser();
  return `user-${data?.user.id ?? 'guest'}:${list}`;
}
