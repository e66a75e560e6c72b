import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '@platform/domain';
import { MarketClock, marketStatusAt, nextOpenAt, nyseHolidays } from './hours.ts';

const at = (iso: string) => new Date(iso);
const fx = (iso: string) => marketStatusAt(at(iso)).fx;
const stock = (iso: string) => marketStatusAt(at(iso)).stock;

describe('forex hours (New York 17:00 roll)', () => {
  it('opens Sunday 17:00 New York: 22:00 UTC in winter, 21:00 UTC in summer', () => {
    expect(fx('2025-01-05T21:59:00Z')).toBe('closed');
    expect(fx('2025-01-05T22:00:00Z')).toBe('open');
    expect(fx('2025-07-06T20:59:00Z')).toBe('closed');
    expect(fx('2025-07-06T21:00:00Z')).toBe('open');
  });

  it('closes Friday 17:00 New York and stays closed on Saturday', () => {
    expect(fx('2025-01-10T21:59:00Z')).toBe('open');
    expect(fx('2025-01-10T22:00:00Z')).toBe('closed');
    expect(fx('2025-07-11T20:59:00Z')).toBe('open');
    expect(fx('2025-07-11T21:00:00Z')).toBe('closed');
    expect(fx('2025-07-12T12:00:00Z')).toBe('closed');
  });

  it('follows the daylight-saving change on the Sunday it happens', () => {
    // 9 March 2025: clocks go forward at 02:00, so 17:00 that day is already EDT (21:00 UTC).
    expect(fx('2025-03-09T20:59:00Z')).toBe('closed');
    expect(fx('2025-03-09T21:00:00Z')).toBe('open');
    // 2 November 2025: back to EST, so the week opens at 22:00 UTC.
    expect(fx('2025-11-02T21:30:00Z')).toBe('closed');
    expect(fx('2025-11-02T22:00:00Z')).toBe('open');
  });

  it('is open mid-week around the clock', () => {
    expect(fx('2025-07-09T03:00:00Z')).toBe('open');
    expect(fx('2025-07-09T21:30:00Z')).toBe('open');
  });
});

describe('NYSE hours', () => {
  it('trades 09:30 to 16:00 New York on both sides of daylight saving', () => {
    // Summer (EDT, UTC-4).
    expect(stock('2025-07-07T13:29:00Z')).toBe('closed');
    expect(stock('2025-07-07T13:30:00Z')).toBe('open');
    expect(stock('2025-07-07T19:59:00Z')).toBe('open');
    expect(stock('2025-07-07T20:00:00Z')).toBe('closed');
    // Winter (EST, UTC-5).
    expect(stock('2025-01-06T14:29:00Z')).toBe('closed');
    expect(stock('2025-01-06T14:30:00Z')).toBe('open');
    expect(stock('2025-01-06T20:59:00Z')).toBe('open');
    expect(stock('2025-01-06T21:00:00Z')).toBe('closed');
  });

  it('is closed at the weekend', () => {
    expect(stock('2025-07-12T15:00:00Z')).toBe('closed');
    expect(stock('2025-07-13T15:00:00Z')).toBe('closed');
  });

  it('is closed on holidays while forex trades', () => {
    expect(marketStatusAt(at('2025-07-04T15:00:00Z'))).toEqual({ fx: 'open', stock: 'closed', crypto: 'open' });
    expect(stock('2025-04-18T15:00:00Z')).toBe('closed'); // Good Friday
    expect(stock('2025-11-27T15:00:00Z')).toBe('closed'); // Thanksgiving
    expect(stock('2025-11-28T15:00:00Z')).toBe('open'); // the Friday after (an early close, still a session)
  });

  it('computes the holiday list with weekend observance', () => {
    expect([...nyseHolidays(2025)].sort()).toEqual([
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-12-25',
    ]);
    expect(nyseHolidays(2026).has('2026-07-03')).toBe(true); // 4 July on a Saturday
    expect(nyseHolidays(2021).has('2021-12-24')).toBe(true); // Christmas on a Saturday
    expect(nyseHolidays(2022).has('2022-06-20')).toBe(true); // Juneteenth on a Sunday
    expect(nyseHolidays(2022).has('2022-01-17')).toBe(true); // MLK
    // New Year 2022 fell on a Saturday: NYSE stayed open on Friday 31 December 2021.
    expect(nyseHolidays(2021).has('2021-12-31')).toBe(false);
    expect(nyseHolidays(2022).has('2021-12-31')).toBe(false);
    expect(nyseHolidays(2024).has('2024-03-29')).toBe(true); // Good Friday 2024
  });
});

describe('MarketClock', () => {
  it('keeps crypto open at any time', () => {
    expect(marketStatusAt(at('2025-07-12T12:00:00Z')).crypto).toBe('open');
  });

  it('follows exchange hours per category, forex also covering commodities and indices', () => {
    const saturday = new MarketClock('exchange', () => at('2025-07-12T12:00:00Z'));
    expect(saturday.status()).toEqual({ fx: 'closed', stock: 'closed', crypto: 'open' });
    expect(CATEGORIES.map((c) => [c, saturday.isOpen(c)])).toEqual([
      ['forex', false],
      ['commodity', false],
      ['index', false],
      ['stock', false],
      ['crypto', true],
    ]);
    const tuesdayNoonNy = new MarketClock('exchange', () => at('2025-07-08T16:00:00Z'));
    expect(tuesdayNoonNy.isOpen('index')).toBe(true);
    expect(tuesdayNoonNy.isOpen('stock')).toBe(true);
  });

  it('moves to the new status on the minute it changes', () => {
    let now = at('2025-07-11T20:59:59Z');
    const clock = new MarketClock('exchange', () => now);
    expect(clock.status().fx).toBe('open');
    now = at('2025-07-11T20:59:59.900Z');
    expect(clock.isOpen('forex')).toBe(true);
    now = at('2025-07-11T21:00:00Z');
    expect(clock.status()).toEqual({ fx: 'closed', stock: 'closed', crypto: 'open' });
  });

  it('pins every market in the open and closed modes', () => {
    const saturday = () => at('2025-07-12T12:00:00Z');
    expect(new MarketClock('open', saturday).status()).toEqual({ fx: 'open', stock: 'open', crypto: 'open' });
    expect(new MarketClock('closed', saturday).isOpen('crypto')).toBe(false);
  });
});

describe('when a closed market opens again', () => {
  it('finds Sunday 17:00 New York for forex on a Saturday, and the next NYSE session after a holiday weekend', () => {
    // Saturday 2026-11-21 12:00 UTC: forex reopens Sunday 17:00 New York (22:00 UTC, winter time).
    expect(nextOpenAt(new Date('2026-11-21T12:00:00Z'), 'fx')?.toISOString()).toBe('2026-11-22T22:00:00.000Z');
    // Thursday 2026-11-26 is Thanksgiving: from Wednesday's close the next session is Friday 09:30 New York.
    expect(nextOpenAt(new Date('2026-11-25T22:00:00Z'), 'stock')?.toISOString()).toBe('2026-11-27T14:30:00.000Z');
  });

  it('is told to screens with the status, and not when a market is open or pinned', () => {
    const saturday = new MarketClock('exchange', () => new Date('2026-11-21T12:00:00Z'));
    expect(saturday.statusWithReopening()).toMatchObject({
      fx: 'closed',
      stock: 'closed',
      crypto: 'open',
      nextOpen: { fx: '2026-11-22T22:00:00.000Z', stock: '2026-11-23T14:30:00.000Z' },
    });
    const wednesday = new MarketClock('exchange', () => new Date('2026-11-25T15:00:00Z'));
    expect(wednesday.statusWithReopening().nextOpen).toEqual({ fx: null, stock: null });
    expect(new MarketClock('closed').statusWithReopening().nextOpen).toEqual({ fx: null, stock: null });
  });
});
