import type { AdminInstrumentDto } from '@platform/domain';

/** One row of the back-office instruments list (component tests). */
export function instrument(over: Partial<AdminInstrumentDto> = {}): AdminInstrumentDto {
  return {
    id: 2,
    name: 'EUR_USD',
    base: 'EUR',
    quote: 'USD',
    alias: 'Euro / US Dollar',
    category: 'forex',
    tradingview: 'OANDA',
    leverage: 100,
    tradable: true,
    swap: '0',
    swap_long: '0',
    swap_short: '0',
    swapLong: '0',
    swapShort: '0',
    digits: 5,
    contract_size: null,
    bids: '1.08510',
    asks: '1.08518',
    open_positions: 0,
    created_at: '2025-01-02T10:00:00.000Z',
    ...over,
  };
}
