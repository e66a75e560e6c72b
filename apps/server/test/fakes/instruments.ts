import type { CategoryName } from '@platform/domain';
import type { InstrumentRow } from '../../src/market/instruments.ts';

let nextId = 1;

/** An instrument row as the registry holds it; base and quote come from the name (EUR_USD -> EUR, USD). */
export function instrumentRow(name: string, category: CategoryName, digits: number): InstrumentRow {
  const [base, quote] = name.split('_');
  return {
    id: nextId++,
    name,
    base,
    quote,
    alias: null,
    category,
    tradingview: '',
    leverage: 0,
    tradable: true,
    swap: '0',
    swapLong: '0',
    swapShort: '0',
    digits,
    contractSize: null,
    bids: null,
    asks: null,
    createdAt: new Date(),
  };
}
