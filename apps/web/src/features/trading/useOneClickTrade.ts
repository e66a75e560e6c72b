import { useCallback, useRef } from 'react';
import type { InstrumentDto, Side } from '@platform/domain';
import { isOneClickOn, lastAmount } from './oneClick.ts';
import { usePlaceOrder } from './usePlaceOrder.ts';

/**
 * One-click trading: while it is on, a SELL or BUY sends a market order at once with the amount last used on the
 * instrument (the usual toast tells the result). Returns false when the dialog is needed instead: one-click is off,
 * or no amount was used on that instrument yet. The function is stable, so instrument rows need not re-render.
 */
export function useOneClickTrade(): (side: Side, instrument: InstrumentDto) => boolean {
  const place = usePlaceOrder();
  const mutate = useRef(place.mutate);
  mutate.current = place.mutate;
  return useCallback((side: Side, instrument: InstrumentDto) => {
    if (!isOneClickOn()) return false;
    const amount = lastAmount(instrument.name);
    if (!amount) return false;
    mutate.current({ type: side, instrument: instrument.name, amount, profit: null, loss: null });
    return true;
  }, []);
}
