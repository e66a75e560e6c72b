import { describe, expect, it } from 'vitest';
import { parseDayMonthYear } from './DayMonthYearInput.tsx';

describe('a date typed day first', () => {
  it('reads the day before the month', () => {
    expect(parseDayMonthYear('16/01/2027')).toBe('2027-01-16');
    expect(parseDayMonthYear('05/01/2027')).toBe('2027-01-05');
    expect(parseDayMonthYear(' 5.1.2027 ')).toBe('2027-01-05');
  });

  it('refuses what is not a real date rather than rolling it over or reading it month first', () => {
    expect(parseDayMonthYear('31/02/2027')).toBeNull();
    expect(parseDayMonthYear('01/16/2027')).toBeNull();
    expect(parseDayMonthYear('2027-01-16')).toBeNull();
    expect(parseDayMonthYear('')).toBeNull();
  });
});
