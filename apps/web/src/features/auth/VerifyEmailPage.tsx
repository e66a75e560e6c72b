import type { ReactNode } from 'react';
import { Alert, Button, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR } from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { AuthCard } from './AuthCard.tsx';

/**
 * Target of the mailed /verify-email?token=... link. A query rather than a mutation: it runs once per
 * token even when React mounts the page twice (StrictMode), so a used token is never posted again.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useQuery({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => apiPost<{ message: string }>('/auth/verify-email', { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  let body: ReactNode;
  if (!token || verify.isError)
    body = (
      <Alert color="red" variant="light" title={t('Verification Failed')}>
        {token
          ? errorMessage(verify.error, t(GENERIC_ERROR))
          : t('This link is invalid or has expired. Please request a new one.')}
      </Alert>
    );
  else if (verify.isPending)
    body = (
      <Stack align="center" py="md">
        <Loader />
        <Text c="dimmed">{t('Verifying your email...')}</Text>
      </Stack>
    );
  else
    body = (
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" color="teal" variant="light">
          <IconCircleCheck size={32} />
        </ThemeIcon>
        <Text ta="center">{verify.data.message}</Text>
      </Stack>
    );

  return (
    <AuthCard title={t('Email Verification')}>
      {body}
      <Button component={Link} to="/" fullWidth mt="lg" variant={verify.isSuccess ? 'filled' : 'default'}>
        {t('Sign In')}
      </Button>
    </AuthCard>
  );
}
