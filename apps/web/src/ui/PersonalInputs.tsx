import { Select } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { parseIsoDate, type ProfileFields } from '@platform/domain';

/** Form values of the personal fields, derived from the shared schema: every field held as a string. */
export type PersonalValues = { [K in keyof z.input<typeof ProfileFields>]-?: string };

interface FieldBinding {
  value: string;
  onChange: (value: string) => void;
  error?: React.ReactNode;
  onBlur?: () => void;
  onFocus?: () => void;
  required?: boolean;
  disabled?: boolean;
}

/**
 * YYYY-MM-DD birth date picker limited to adults (sign-up and profile share the 18-year rule). Typed dates are parsed
 * strictly: an impossible date is left out, never rolled over into another one.
 */
export function BirthDateInput({ value, onChange, ...rest }: FieldBinding) {
  const { t } = useTranslation();
  const eighteenYearsAgo = dayjs().subtract(18, 'year').toDate();
  return (
    <DateInput
      label={t('Birth Date')}
      valueFormat="YYYY-MM-DD"
      dateParser={(typed) => parseIsoDate(typed)}
      placeholder="YYYY-MM-DD"
      maxDate={eighteenYearsAgo}
      defaultDate={eighteenYearsAgo}
      required
      {...rest}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}

/** Searchable country select over the list the product ships. */
export function CountrySelect({
  value,
  onChange,
  countries,
  ...rest
}: FieldBinding & { countries: string[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('Country')}
      data={countries ?? (value ? [value] : [])}
      searchable
      nothingFoundMessage={t('No country found')}
      required
      {...rest}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}
