import { z } from 'zod';

/**
 * Text no column can store: NUL (PostgreSQL refuses it in text) and a UTF-16 half without its pair (not Unicode;
 * JSONB refuses it). Every text field of every payload is checked for them, so they are a 400, never a 500.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL is the point (PostgreSQL cannot store it)
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSAFE_TEXT_MESSAGE = 'Contains characters that are not allowed';
export const isSafeText = (s: string): boolean => !UNSAFE_TEXT.test(s);

/** Any text the API takes: at most `max` characters (what its column holds), no NUL, no lone surrogates. */
export const safeString = (max: number, required?: string) =>
  z
    .string(required ? { error: required } : undefined)
    .max(max, { error: `Must be at most ${max} characters` })
    .refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE });

/** A required trimmed string with the spec's "X is required" message for missing or empty input. */
export const requiredString = (message: string, max = 255) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters` })
    .refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE });

export const optionalString = (max = 255) =>
  z
    .string()
    .trim()
    .max(max, { error: `Must be at most ${max} characters` })
    .refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE })
    .optional()
    .nullable();

/**
 * A password as typed: only hashed or compared, never stored as text, so any character is fine; the length is
 * bounded so hashing stays cheap. `message` is the "X is required" of a missing or empty value.
 */
export const secretString = (message: string, max = 128) =>
  z
    .string({ error: message })
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters` });

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, { error: 'Email is required' })
  .max(255)
  .pipe(z.email({ error: 'Invalid email' }))
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required' })
  .min(8, { error: 'Password must be at least 8 characters' })
  .max(128, { error: 'Password must be at most 128 characters' });

/** Query of every paged list: ?page&limit&search (limit 15 by default, at most 100; pages beyond a million rows are refused). */
export const PagedQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000, { error: 'Page is out of range' }).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(15),
  search: z.string().trim().max(100).refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE }).optional(),
  /** `csv`: every matching row as a CSV download instead of one page (back-office lists). */
  format: z.enum(['csv'], { error: 'Unknown format' }).optional(),
});
export type PagedQuery = z.infer<typeof PagedQuery>;

export const PageMeta = z.object({
  total: z.number().int(),
  per_page: z.number().int(),
  page: z.number().int(),
  /** Set when the list stopped counting (very long lists count some pages past the one shown): total is a lower bound. */
  total_capped: z.boolean().optional(),
});
export type PageMeta = z.infer<typeof PageMeta>;

export const paged = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMeta });

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const ErrorResponse = z.object({ message: z.string(), errors: z.record(z.string(), z.string()).optional() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

// Bounded to PostgreSQL's integer range: a larger id would make the query itself fail (500) instead of a 400.
export const IdParam = z.object({
  id: z.coerce.number().int().positive({ error: 'Invalid id' }).max(2_147_483_647, { error: 'Invalid id' }),
});

/** Money on the wire: a decimal string. */
export const MoneyString = z.string().regex(/^-?\d+(\.\d+)?$/);

/**
 * A YYYY-MM-DD calendar date exactly as typed, or null: 1992-13-45 or 2023-02-29 are refused, never rolled over
 * into another date (as Date and lenient parsers do).
 */
export function parseIsoDate(s: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** YYYY-MM-DD date (a birth date): required, a real calendar date, not in the future. */
export const DateString = z
  .string({ error: 'Birth date is required' })
  .trim()
  .min(1, { error: 'Birth date is required' })
  .refine((s) => parseIsoDate(s) !== null, { error: 'Enter a real date as YYYY-MM-DD' })
  .refine((s) => s <= new Date().toISOString().slice(0, 10), { error: 'The date cannot be in the future' });

/** True when a YYYY-MM-DD birth date is at least `years` before today. */
export function isAdult(birthDate: string, years = 18, today = new Date()): boolean {
  const [y, m, d] = birthDate.split('-').map(Number);
  const limit = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  return Date.UTC(y, m - 1, d) <= limit.getTime();
}
