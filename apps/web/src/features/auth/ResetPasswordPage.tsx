import { useState } from 'react';
import { Alert, Anchor, Button, Modal, PasswordInput, Stack, Text, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, ResetPasswordRequest } from '@platform/domain';
import { apiPut, errorMessage } from '../../api/client.ts';
import { applyServerErrors, fieldProps, schemaErrors } from '../../ui/form.ts';
import { toastError } from '../../ui/toast.ts';
import { AuthCard } from './AuthCard.tsx';

interface ResetValues extends Record<string, unknown> {
  password: string;
}

/**
 * Set-new-password page reached from the mailed /reset-password?token=... link. The spec's modal title
 * is misspelled "Sucessful"; we spell it "Successful" (listed as a deviation).
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const form = useForm<ResetValues>({
    mode: 'controlled',
    initialValues: { password: '' },
    validate: (values) => schemaErrors(ResetPasswordRequest, { ...values, token }),
    validateInputOnBlur: true,
  });

  const reset = useMutation({
    mutationFn: (values: ResetValues) =>
      apiPut<{ message: string }>('/forgot-password', { password: values.password, token }),
    onSuccess: () => setDone(true),
    onError: (err) => {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });

  return (
    <AuthCard title={t('Set New Password')} subtitle={t('Choose a new password of at least 8 characters.')}>
      {token ? (
        <form onSubmit={form.onSubmit((values) => reset.mutate(values))} noValidate>
          <Stack gap="md">
            <PasswordInput
              label={t('New Password')}
              autoComplete="new-password"
              required
              {...fieldProps(form, 'password', t)}
            />
            <Button type="submit" fullWidth size="md" loading={reset.isPending}>
              {t('Submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Alert color="red" variant="light">
          {t('This link is invalid or has expired. Please request a new one.')}{' '}
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('Forgot Password')}
          </Anchor>
        </Alert>
      )}
      <Text size="sm" ta="center" mt="md">
        <Anchor component={Link} to="/">
          {t('Sign In')}
        </Anchor>
      </Text>
      <Modal opened={done} onClose={() => navigate('/')} title={t('Successful')} centered>
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Text fw={600} size="lg">
            {t('Password Updated')}
          </Text>
          <Text ta="center" c="dimmed">
            {t('Your new password has been set successfully. Please click the button below to login')}
          </Text>
          <Button fullWidth mt="sm" onClick={() => navigate('/')}>
            {t('Login')}
          </Button>
        </Stack>
      </Modal>
    </AuthCard>
  );
}
