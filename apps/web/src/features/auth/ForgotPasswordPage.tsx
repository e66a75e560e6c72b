import { useState } from 'react';
import { Anchor, Button, Modal, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ForgotPasswordRequest, GENERIC_ERROR } from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { applyServerErrors, fieldProps, schemaErrors } from '../../ui/form.ts';
import { toastError } from '../../ui/toast.ts';
import { AuthCard } from './AuthCard.tsx';
import { CaptchaField } from './CaptchaField.tsx';
import { useCaptcha } from './useCaptcha.ts';

interface ForgotValues extends Record<string, unknown> {
  email: string;
}

/** Reset request (spec §2): email, captcha when on, then the "Verification Email Sent" modal. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const captcha = useCaptcha();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotValues>({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: (values) => schemaErrors(ForgotPasswordRequest, values),
    validateInputOnBlur: true,
  });

  const request = useMutation({
    mutationFn: (values: ForgotValues) =>
      apiPost<{ message: string }>('/forgot-password', { email: values.email, humanKey: captcha.token }),
    onSuccess: (_res, values) => setSentTo(values.email),
    onError: (err) => {
      captcha.reset();
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });

  return (
    <AuthCard
      title={t('Forgot Password')}
      subtitle={t('Enter your email and we will send you a link to reset your password.')}
    >
      <form onSubmit={form.onSubmit((values) => request.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput type="email" label={t('Email')} autoComplete="email" required {...fieldProps(form, 'email', t)} />
          <CaptchaField captcha={captcha} />
          <Button type="submit" fullWidth size="md" disabled={!captcha.satisfied} loading={request.isPending}>
            {t('Submit')}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/">
              {t('Sign In')}
            </Anchor>
          </Text>
        </Stack>
      </form>
      <Modal opened={sentTo !== null} onClose={() => navigate('/')} title={t('Verification Email Sent')} centered>
        <Stack align="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconMailCheck size={30} />
          </ThemeIcon>
          <Text ta="center">
            {t(
              'A verification email has been sent to {{email}}. Please click the link in the email to reset your password.',
              {
                email: sentTo ?? '',
              },
            )}
          </Text>
          <Button fullWidth onClick={() => navigate('/')}>
            {t('Sign In')}
          </Button>
        </Stack>
      </Modal>
    </AuthCard>
  );
}
