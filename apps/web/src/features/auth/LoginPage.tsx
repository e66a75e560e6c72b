import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOGIN_FALLBACK_ERROR } from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { queryKeys, useCurrentUser } from '../../api/hooks.ts';
import { toastError } from '../../ui/toast.ts';
import { AuthCard } from './AuthCard.tsx';
import { CaptchaField } from './CaptchaField.tsx';
import { LoginTwoFactor, type TwoFactorStep } from './LoginTwoFactor.tsx';
import { useCaptcha } from './useCaptcha.ts';

interface LoginValues {
  email: string;
  password: string;
  remember: boolean;
}

type LoginResult =
  | { message: string; user: { id: number; role_id: number }; twoFactor?: undefined }
  /** Staff with two-factor sign-in: no session yet, a second step follows. */
  | { message: string; twoFactor: 'code' | 'enrol'; challenge: string };

/** Sign-in page at "/" (spec §2). Every role lands on /dashboard; staff reach the back office from its shortcuts. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const captcha = useCaptcha();
  const { data: current } = useCurrentUser();
  const form = useForm<LoginValues>({
    mode: 'controlled',
    initialValues: { email: '', password: '', remember: false },
  });
  const [twoFactor, setTwoFactor] = useState<TwoFactorStep | null>(null);

  const signedIn = async () => {
    // The socket was opened anonymously (or for a previous user); re-handshake with the new session cookie.
    void import('../../api/realtime.ts').then((m) => m.reconnectRealtime());
    await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    await navigate('/dashboard');
  };

  const login = useMutation({
    mutationFn: (values: LoginValues) => apiPost<LoginResult>('/auth/login', { ...values, humanKey: captcha.token }),
    onSuccess: async (res, values) => {
      if (res.twoFactor) {
        setTwoFactor({ mode: res.twoFactor, challenge: res.challenge, remember: values.remember });
        return;
      }
      await signedIn();
    },
    onError: (err) => {
      captcha.reset();
      toastError(errorMessage(err, t(LOGIN_FALLBACK_ERROR)), 'bottom-center');
    },
  });

  // While the second step shows recovery codes the session already exists; the codes stay until confirmed.
  if (current && !twoFactor) return <Navigate to="/dashboard" replace />;
  if (twoFactor)
    return (
      <LoginTwoFactor
        step={twoFactor}
        onSignedIn={() => void signedIn()}
        onRestart={() => {
          setTwoFactor(null);
          captcha.reset();
          form.setFieldValue('password', '');
        }}
      />
    );

  const filled = form.values.email.trim() !== '' && form.values.password !== '';
  return (
    <AuthCard title={t('Sign In')} subtitle={t('Welcome back! Please sign in to your account.')}>
      <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            label={t('Email')}
            placeholder={t('you@example.com')}
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('Password')}
            placeholder={t('Your password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="space-between">
            <Checkbox label={t('Remember Me')} {...form.getInputProps('remember', { type: 'checkbox' })} />
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('Forgot password?')}
            </Anchor>
          </Group>
          <CaptchaField captcha={captcha} />
          <Button type="submit" fullWidth size="md" disabled={!filled || !captcha.satisfied} loading={login.isPending}>
            {t('Sign In')}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            {t("Don't have an account?")}{' '}
            <Anchor component={Link} to="/signup">
              {t('Sign Up')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
