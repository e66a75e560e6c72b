import { DateInput, type DateInputProps } from '@mantine/dates';
import { parseIsoDate } from '@platform/domain';

/**
 * A typed DD/MM/YYYY date as YYYY-MM-DD, or null when it is not a real date. Without it the field fell back to the
 * browser's own reading, month first: 16/01/2027 was no date at all and 05/01/2027 became the 1st of May.
 */
export function parseDayMonthYear(typed: string): string | null {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(typed.trim());
  if (!m) return null;
  return parseIsoDate(`${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`);
}

/** A date field shown and typed day first (the back office's date ranges). */
export function DayMonthYearInput(props: Omit<DateInputProps, 'valueFormat' | 'dateParser'>) {
  return <DateInput valueFormat="DD/MM/YYYY" dateParser={parseDayMonthYear} {...props} />;
}
