import { describe, expect, it } from 'vitest';
import { addDays, cutoffOf, dueTradingDate, localDateOf } from './clock.ts';
import { swapDaysOf, weekdayOf } from './calendar.ts';
import { DEFAULT_SWAP_CALENDAR } from '@platform/domain';

const NY = 'America/New_York';

describe('rollover clock', () => {
  it('puts 17:00 New York at 21:00 UTC in summer time and 22:00 UTC in winter, across both changes', () => {
    expect(cutoffOf('2026-10-06', '17:00', NY).toISOString()).toBe('2026-10-06T21:00:00.000Z');
    expect(cutoffOf('2026-11-24', '17:00', NY).toISOString()).toBe('2026-11-24T22:00:00.000Z');
    // The Sunday clocks go back (1 November 2026) and forward (8 March 2026).
    expect(cutoffOf('2026-11-01', '17:00', NY).toISOString()).toBe('2026-11-01T22:00:00.000Z');
    expect(cutoffOf('2026-03-08', '17:00', NY).toISOString()).toBe('2026-03-08T21:00:00.000Z');
    expect(cutoffOf('2026-10-06', '22:30', 'UTC').toISOString()).toBe('2026-10-06T22:30:00.000Z');
    expect(cutoffOf('2026-10-06', '00:15', 'Asia/Tokyo').toISOString()).toBe('2026-10-05T15:15:00.000Z');
  });

  it('makes a date due from its rollover time on, the day before until then', () => {
    expect(dueTradingDate(new Date('2026-10-06T20:59:59Z'), '17:00', NY)).toBe('2026-10-05');
    expect(dueTradingDate(new Date('2026-10-06T21:00:00Z'), '17:00', NY)).toBe('2026-10-06');
    // 01:00 UTC on the 7th is still the 6th in New York, after its rollover.
    expect(dueTradingDate(new Date('2026-10-07T01:00:00Z'), '17:00', NY)).toBe('2026-10-06');
    expect(dueTradingDate(new Date('2026-10-07T01:00:00Z'), '00:30', 'UTC')).toBe('2026-10-07');
    expect(localDateOf(new Date('2026-10-07T01:00:00Z'), NY)).toBe('2026-10-06');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('charges one day, three on the triple day, none on a weekend a category does not charge', () => {
    expect(weekdayOf('2026-10-14')).toBe('wednesday');
    expect(weekdayOf('2026-10-18')).toBe('sunday');
    const cal = {
      tripleSwapDay: Object.fromEntries(Object.entries(DEFAULT_SWAP_CALENDAR).map(([c, v]) => [c, v.tripleSwapDay])),
      weekends: Object.fromEntries(Object.entries(DEFAULT_SWAP_CALENDAR).map(([c, v]) => [c, v.weekends])),
    } as Parameters<typeof swapDaysOf>[0];
    expect(swapDaysOf(cal, 'forex', '2026-10-13')).toBe(1);
    expect(swapDaysOf(cal, 'forex', '2026-10-14')).toBe(3);
    expect(swapDaysOf(cal, 'commodity', '2026-10-14')).toBe(3);
    expect(swapDaysOf(cal, 'index', '2026-10-14')).toBe(1);
    expect(swapDaysOf(cal, 'stock', '2026-10-16')).toBe(3);
    expect(swapDaysOf(cal, 'forex', '2026-10-17')).toBe(0);
    expect(swapDaysOf(cal, 'crypto', '2026-10-17')).toBe(1);
    expect(swapDaysOf(cal, 'crypto', '2026-10-14')).toBe(1);
  });
});
