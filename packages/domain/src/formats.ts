import dayjs from 'dayjs';

/** Date formats of the specification. */
export const DATE_TIME_FORMAT = 'DD/MM/YYYY h:mm A';
export const ORDER_TIME_FORMAT = 'YYYY-MM-DD h:mm A';

/** DD/MM/YYYY h:mm A, or '-' for an empty date (back-office spec §2). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '-';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_TIME_FORMAT) : '-';
}

export function formatOrderTime(value: string | Date | null | undefined): string {
  if (!value) return '-';
  const d = dayjs(value);
  return d.isValid() ? d.format(ORDER_TIME_FORMAT) : '-';
}

/** Page count of a paged list; 15 per page when the response carries no meta. */
export function pageCount(total: number | undefined, perPage: number | undefined): number {
  const size = perPage && perPage > 0 ? perPage : 15;
  return Math.max(1, Math.ceil((total ?? 0) / size));
}
