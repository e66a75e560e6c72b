import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, NameUpdateRequest, type MessageResponse } from '@platform/domain';
import { apiPut, errorMessage } from '../../../api/client.ts';
import { queryKeys } from '../../../api/hooks.ts';
import { applyServerErrors, fieldProps, schemaErrors } from '../../../ui/form.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

interface NameValues extends Record<string, unknown> {
  fullName: string;
}

/**
 * A staff member's own Profile (the header's Profile item): their name, which they may change, their email, and
 * the way to Security, where they change their password and two-factor sign-in.
 */
export function OwnProfileForm({ fullName, email, onSaved }: { fullName: string; email: string; onSaved: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<NameValues>({
    mode: 'controlled',
    initialValues: { fullName },
    validate: (values) => schemaErrors(NameUpdateRequest, values),
  });
  const save = useMutation({
    mutationFn: (values: NameValues) => apiPut<MessageResponse>('/profile/name', values),
    onSuccess: (res) => {
      toastSuccess(res.message);
      void client.invalidateQueries({ queryKey: queryKeys.currentUser });
      onSaved();
    },
    onError: (err) => {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md" maw={480} data-testid="own-profile">
        <TextInput label={t('Full Name')} required autoComplete="name" {...fieldProps(form, 'fullName', t)} />
        <TextInput label={t('Email')} value={email} readOnly />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('Update')}
          </Button>
          <Button component={Link} to="/security" variant="default">
            {t('Change Password')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('Your password and two-factor sign-in are on the Security page.')}
        </Text>
      </Stack>
    </form>
  );
}
