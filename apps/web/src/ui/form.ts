import type { TFunction } from 'i18next';
import type { UseFormReturnType } from '@mantine/form';
import type { ZodType } from 'zod';
import { ApiError } from '../api/client.ts';

export type FieldErrors = Record<string, string>;

/** Field errors of a zod schema, first message per field, keyed like the form's fields. */
export function schemaErrors(schema: ZodType, values: unknown): FieldErrors {
  const result = schema.safeParse(values);
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/**
 * Mantine input props with the error text translated: the domain's schemas carry English messages,
 * which are also the translation keys.
 */
export function fieldProps<V extends Record<string, unknown>>(
  form: UseFormReturnType<V>,
  name: keyof V & string,
  t: TFunction,
  options?: { type?: 'input' | 'checkbox' },
) {
  const props = form.getInputProps(name, options);
  const error = props.error;
  return { ...props, error: typeof error === 'string' && error ? t(error) : error };
}

/** Puts the server's per-field errors (`errors` of an API failure) under the matching inputs. */
export function applyServerErrors<V>(form: UseFormReturnType<V>, err: unknown): void {
  if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
}
