import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChangePasswordRequest, GENERIC_ERROR } from '@platform/domain';
import { apiPut, errorMessage } from '../../api/client.ts';
import { applyServerErrors, fieldProps, schemaErrors } from '../../ui/form.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { useCurrentUser } from '../../api/hooks.ts';
import { TwoFactorCard } from '../two-factor/TwoFactorCard.tsx';
import { SessionsCards } from './SessionsCards.tsx';

interface PasswordValues extends Record<string, unknown> {
  currentPassword: string;
  newPassword: string;
}

/**
 * Change password (spec §2 Security, §5): current password plus a new one of at least 8 characters; two-factor sign-in;
 * sessions and sign-in history. A session older than 15 minutes confirms first (ReauthDialog) before a change.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '' },
    validate: (values) => schemaErrors(ChangePasswordRequest, values),
    validateInputOnBlur: true,
  });
  const change = useMutation({
    mutationFn: (values: PasswordValues) => apiPut<{ message: string }>('/security/password', values),
    onSuccess: (res) => {
      toastSuccess(res.message);
      form.reset();
    },
    onError: (err) => {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });
  const { data: current } = useCurrentUser();
  // Every user's own second factor (customers too), but not for staff signed in as a customer ("Login as").
  const ownRole = current && !current.impersonating ? current.user.role_id : null;
  return (
    <Stack gap="lg">
      <PageCard title={t('Security')} description={t('Change the password you use to sign in.')}>
        <form onSubmit={form.onSubmit((values) => change.mutate(values))} noValidate>
          <Stack gap="md" maw={420}>
            <PasswordInput
              label={t('Current Password')}
              autoComplete="current-password"
              required
              {...fieldProps(form, 'currentPassword', t)}
            />
            <PasswordInput
              label={t('New Password')}
              autoComplete="new-password"
              required
              {...fieldProps(form, 'newPassword', t)}
            />
            <Group>
              <Button type="submit" loading={change.isPending}>
                {t('Update Password')}
              </Button>
            </Group>
          </Stack>
        </form>
      </PageCard>
      {ownRole !== null && <TwoFactorCard isAdmin={ownRole === 1} />}
      <SessionsCards base="/security" own />
    </Stack>
  );
}
