import { useEffect, useState } from 'react';
import { Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, ROLE_NAMES, STAFF_ROLES } from '@platform/domain';
import { apiGet, apiPut, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';

const policyKey = ['admin', 'two-factor-policy'] as const;

/** Admins: the staff roles that must use two-factor sign-in (GET/PUT /admin/security/two-factor-policy). */
export function TwoFactorPolicyForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const policy = useQuery({
    queryKey: policyKey,
    queryFn: () => apiGet<{ roles: number[] }>('/admin/security/two-factor-policy'),
  });
  const [roles, setRoles] = useState<string[]>([]);
  useEffect(() => {
    if (policy.data) setRoles(policy.data.roles.map(String));
  }, [policy.data]);
  const save = useMutation({
    mutationFn: () => apiPut<{ roles: number[] }>('/admin/security/two-factor-policy', { roles: roles.map(Number) }),
    onSuccess: async () => {
      toastSuccess(t('Saved'));
      await queryClient.invalidateQueries({ queryKey: policyKey });
      await queryClient.invalidateQueries({ queryKey: ['two-factor', 'status'] });
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
  });
  return (
    <Stack gap="sm">
      <MultiSelect
        label={t('Require two-factor sign-in for roles')}
        data={STAFF_ROLES.map((r) => ({ value: String(r), label: t(ROLE_NAMES[r]) }))}
        value={roles}
        onChange={setRoles}
        clearable
        disabled={!policy.data}
        data-testid="two-factor-policy"
      />
      <Text size="xs" c="dimmed">
        {t('Users of a newly required role who have not set it up are signed out and set it up at their next sign-in.')}
      </Text>
      <Group>
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!policy.data}>
          {t('Save')}
        </Button>
      </Group>
    </Stack>
  );
}
