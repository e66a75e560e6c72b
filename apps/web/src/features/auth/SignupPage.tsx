import { useEffect, useState } from 'react';
import { Anchor, Button, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, SignupRequest } from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { useBranding, useCountries } from '../../api/hooks.ts';
import { applyServerErrors, fieldProps, schemaErrors, type FieldErrors } from '../../ui/form.ts';
import { toastError } from '../../ui/toast.ts';
import { BirthDateInput, CountrySelect, type PersonalValues } from '../../ui/PersonalInputs.tsx';
import { AuthCard } from './AuthCard.tsx';
import { CaptchaField } from './CaptchaField.tsx';
import { SignupSuccessModal } from './SignupSuccessModal.tsx';
import { useCaptcha } from './useCaptcha.ts';

export type SignupValues = PersonalValues & {
  email: string;
  password: string;
  passwordConfirmation: string;
  promoCode: string;
  currency: string;
};

const EMPTY: SignupValues = {
  fullName: '',
  email: '',
  password: '',
  passwordConfirmation: '',
  phone: '',
  birthDate: '',
  country: '',
  city: '',
  address: '',
  postalCode: '',
  promoCode: '',
  currency: '',
};

/** A partner's sign-up link carries their promo code (`/signup?promo=CODE`): the form starts with it filled in. */
const promoFromLink = (): string =>
  (new URLSearchParams(window.location.search).get('promo') ?? '').trim().slice(0, 64);

/** The domain's SignupRequest rules, plus the password match checked on its own (see below). */
export function validateSignup(values: SignupValues): FieldErrors {
  const errors = schemaErrors(SignupRequest, values);
  // zod runs the schema's match refinement only once every other field is valid; checking it here
  // shows "Passwords must match" as soon as the confirmation field has been touched.
  if (!errors.passwordConfirmation && values.passwordConfirmation && values.password !== values.passwordConfirmation)
    errors.passwordConfirmation = 'Passwords must match';
  return errors;
}

/** Sign-up page (spec §2): two-column form, errors under a field once it has been left. */
export function SignupPage() {
  const { t } = useTranslation();
  const { data: branding } = useBranding();
  const countries = useCountries();
  const captcha = useCaptcha();
  const [created, setCreated] = useState<{ emailVerification: boolean; email: string } | null>(null);
  const form = useForm<SignupValues>({
    mode: 'controlled',
    initialValues: { ...EMPTY, promoCode: promoFromLink() },
    validate: validateSignup,
    validateInputOnBlur: true,
  });

  const defaultCurrency = branding?.appCurrency;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the branding's arrival sets it; the user's choice must stay
  useEffect(() => {
    if (defaultCurrency && !form.values.currency) form.setFieldValue('currency', defaultCurrency);
    // Only when branding arrives: the user's own choice must not be overwritten.
  }, [defaultCurrency]);

  const signup = useMutation({
    mutationFn: (values: SignupValues) =>
      apiPost<{ message: string; emailVerification: boolean }>('/auth/signup', {
        ...values,
        promoCode: values.promoCode.trim() || null,
        humanKey: captcha.token,
      }),
    onSuccess: (res, values) => setCreated({ emailVerification: res.emailVerification, email: values.email }),
    onError: (err) => {
      captcha.reset();
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });

  const f = (name: keyof SignupValues & string) => fieldProps(form, name, t);
  return (
    <AuthCard
      width={760}
      title={t('Create an account on {{appName}}', { appName: branding?.appName ?? '' })}
      subtitle={
        <>
          {t('Already have an account?')}{' '}
          <Anchor component={Link} to="/" size="sm">
            {t('Sign In')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={form.onSubmit((values) => signup.mutate(values))} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <TextInput label={t('Full Name')} autoComplete="name" required {...f('fullName')} />
            <TextInput type="email" label={t('Email')} autoComplete="email" required {...f('email')} />
            <PasswordInput label={t('Password')} autoComplete="new-password" required {...f('password')} />
            <PasswordInput
              label={t('Confirm Password')}
              autoComplete="new-password"
              required
              {...f('passwordConfirmation')}
            />
            <TextInput
              type="tel"
              label={t('Phone')}
              autoComplete="tel"
              placeholder="+44 20 7946 0000"
              required
              {...f('phone')}
            />
            <BirthDateInput
              {...f('birthDate')}
              value={form.values.birthDate}
              onChange={(v) => form.setFieldValue('birthDate', v)}
            />
            <CountrySelect
              {...f('country')}
              countries={countries.data}
              value={form.values.country}
              onChange={(v) => form.setFieldValue('country', v)}
            />
            <TextInput label={t('City')} autoComplete="address-level2" required {...f('city')} />
            <TextInput label={t('Address')} autoComplete="street-address" required {...f('address')} />
            <TextInput label={t('Postal Code')} autoComplete="postal-code" required {...f('postalCode')} />
            <TextInput
              label={
                <>
                  {t('Promo Code')}{' '}
                  <Text span size="xs" c="dimmed">
                    ({t('Optional')})
                  </Text>
                </>
              }
              {...f('promoCode')}
            />
            <Select
              label={t('Currency')}
              data={branding?.appCurrencies ?? []}
              allowDeselect={false}
              required
              {...f('currency')}
              value={form.values.currency || null}
              onChange={(v) => form.setFieldValue('currency', v ?? '')}
            />
          </SimpleGrid>
          <CaptchaField captcha={captcha} />
          <Button type="submit" size="md" fullWidth disabled={!captcha.satisfied} loading={signup.isPending}>
            {t('Sign Up')}
          </Button>
        </Stack>
      </form>
      <SignupSuccessModal result={created} />
    </AuthCard>
  );
}
