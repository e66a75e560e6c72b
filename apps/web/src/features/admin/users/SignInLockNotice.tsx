import { Alert, Button, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MessageResponse, SignInLockResponse } from '@platform/domain';
import { apiDelete, apiGet, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const lockKey = (userId: number) => ['admin', 'sign-in-lock', userId] as const;

/**
 * Shown above a user's edit form while failed sign-ins have locked the account: how long until it opens by itself,
 * and a button to let the user try again at once (GET and DELETE /admin/users/{id}/sign-in-lock).
 */
export function SignInLockNotice({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lock = useQuery({
    queryKey: lockKey(userId),
    queryFn: () => apiGet<SignInLockResponse>(`/admin/users/${userId}/sign-in-lock`),
  });
  if (!lock.data?.locked) return null;

  const unlock = async () => {
    try {
      const res = await apiDelete<MessageResponse>(`/admin/users/${userId}/sign-in-lock`);
      toastSuccess(res.message);
      await queryClient.invalidateQueries({ queryKey: lockKey(userId) });
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };

  return (
    <Alert color="orange" variant="light" icon={<IconLock size={18} />} mb="md" title={t('Sign-in locked')}>
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Text size="sm">
          {t('Too many failed sign-ins. The lock opens by itself in {{minutes}} minutes.', {
            minutes: lock.data.minutes,
          })}
        </Text>
        <Button size="xs" color="orange" onClick={unlock} style={{ flexShrink: 0 }}>
          {t('Unlock now')}
        </Button>
      </Group>
    </Alert>
  );
}
