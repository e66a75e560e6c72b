import { describe, expect, it } from 'vitest';
import { pendingOpenPrice, pendingPriceError, pendingTrigger, reaches } from './pending.ts';

const q = { bid: '1.10000', ask: '1.10020' };

describe('pending order price rules (MT5)', () => {
  it('accepts each kind on its side of the market and refuses the other side, naming the field', () => {
    expect(pendingPriceError('buy', 'limit', '1.1001', null, q)).toBeNull();
    expect(pendingPriceError('buy', 'limit', '1.1002', null, q)?.field).toBe('price');
    expect(pendingPriceError('sell', 'limit', '1.1001', null, q)).toBeNull();
    expect(pendingPriceError('sell', 'limit', '1.1', null, q)?.message).toContain('above the bid (1.1)');
    expect(pendingPriceError('buy', 'stop', '1.1003', null, q)).toBeNull();
    expect(pendingPriceError('buy', 'stop', '1.1002', null, q)?.field).toBe('price');
    expect(pendingPriceError('sell', 'stop', '1.0999', null, q)).toBeNull();
    expect(pendingPriceError('sell', 'stop', '1.1', null, q)?.field).toBe('price');
    expect(pendingPriceError('buy', 'stop_limit', '1.11', '1.11', q)).toBeNull();
    expect(pendingPriceError('buy', 'stop_limit', '1.11', '1.1101', q)?.field).toBe('limitPrice');
    expect(pendingPriceError('sell', 'stop_limit', '1.09', '1.09', q)).toBeNull();
    expect(pendingPriceError('sell', 'stop_limit', '1.09', '1.0899', q)?.field).toBe('limitPrice');
  });

  it('checks only the limit of an activated stop-limit against the market', () => {
    expect(pendingPriceError('buy', 'stop_limit', '1.09', '1.1001', q, true)).toBeNull();
    expect(pendingPriceError('buy', 'stop_limit', '1.09', '1.1002', q, true)?.field).toBe('limitPrice');
    expect(pendingPriceError('sell', 'stop_limit', '1.2', '1.1', q, true)?.field).toBe('limitPrice');
  });

  it('triggers buys on the ask and sells on the bid, limits at or better, stops at or past', () => {
    expect(pendingTrigger('buy', 'limit', false)).toEqual({ trigger: 'ask_le', on: 'price' });
    expect(pendingTrigger('sell', 'limit', false)).toEqual({ trigger: 'bid_ge', on: 'price' });
    expect(pendingTrigger('buy', 'stop', false)).toEqual({ trigger: 'ask_ge', on: 'price' });
    expect(pendingTrigger('sell', 'stop', false)).toEqual({ trigger: 'bid_le', on: 'price' });
    expect(pendingTrigger('buy', 'stop_limit', false)).toEqual({ trigger: 'ask_ge', on: 'price' });
    expect(pendingTrigger('buy', 'stop_limit', true)).toEqual({ trigger: 'ask_le', on: 'limitPrice' });
    expect(reaches('ask_le', 1.1, { bid: 1.0998, ask: 1.1 })).toBe(true);
    expect(reaches('ask_le', 1.1, { bid: 1.0999, ask: 1.1001 })).toBe(false);
    expect(reaches('bid_le', 1.1, { bid: 1.1, ask: 1.1002 })).toBe(true);
    expect(pendingOpenPrice('stop_limit', '1.11', '1.105').toString()).toBe('1.105');
    expect(pendingOpenPrice('limit', '1.09', null).toString()).toBe('1.09');
  });
});
