import { describe, expect, it } from 'vitest';
import type { Candle } from '@platform/domain';
import { resample } from './service.ts';

const at = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;
const day = (iso: string, open: number, high: number, low: number, close: number): Candle => ({
  time: at(iso),
  open,
  high,
  low,
  close,
});

describe('weekly and monthly bars from daily bars', () => {
  // Fri 27 Feb 2026 to Tue 3 Mar 2026, with a Sunday session as forex has: two weeks, two months.
  const daily = [
    day('2026-02-26', 10, 11, 9, 10.5), // Thursday
    day('2026-02-27', 10.5, 12, 10, 11), // Friday, the last day of February
    day('2026-03-01', 11, 11.2, 10.8, 11.1), // Sunday, the 1st of March
    day('2026-03-02', 11.1, 13, 10.9, 12.5), // Monday
    day('2026-03-03', 12.5, 12.6, 8, 9), // Tuesday
  ];

  it('starts each week on Monday: the Sunday session closes the week before', () => {
    expect(resample(daily, '1w')).toEqual([
      { time: at('2026-02-23'), open: 10, high: 12, low: 9, close: 11.1 },
      { time: at('2026-03-02'), open: 11.1, high: 13, low: 8, close: 9 },
    ]);
  });

  it('cuts months at the 1st, whatever the weekday', () => {
    expect(resample(daily, '1mo')).toEqual([
      { time: at('2026-02-01'), open: 10, high: 12, low: 9, close: 11 },
      { time: at('2026-03-01'), open: 11, high: 13, low: 8, close: 9 },
    ]);
  });

  it('keeps a week that spans two months whole, and a year end too', () => {
    const yearEnd = [
      day('2026-12-30', 1, 2, 0.5, 1.5),
      day('2027-01-01', 1.5, 3, 1, 2.5),
      day('2027-01-04', 2.5, 2.6, 2, 2.2),
    ];
    expect(resample(yearEnd, '1w').map((b) => b.time)).toEqual([at('2026-12-28'), at('2027-01-04')]);
    expect(resample(yearEnd, '1w')[0]).toMatchObject({ open: 1, high: 3, low: 0.5, close: 2.5 });
    expect(resample(yearEnd, '1mo').map((b) => b.time)).toEqual([at('2026-12-01'), at('2027-01-01')]);
  });

  it('starts a week on Monday even when its first bar is later (a holiday)', () => {
    expect(resample([day('2026-05-26', 5, 6, 4, 5.5)], '1w')[0].time).toBe(at('2026-05-25'));
  });
});
