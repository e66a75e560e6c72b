import { Button, Group, Text } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageResponse } from '@platform/domain';
import { apiDelete, errorMessage } from '../../../api/client.ts';
import { ConfirmPopover } from '../../../ui/data-table/ConfirmPopover.tsx';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

/**
 * On a staff user's edit form: turns their two-factor sign-in off when they lost their phone
 * (DELETE /admin/users/{id}/two-factor). They are signed out and sign in with the password alone, or set it up
 * again if their role requires it.
 */
export function TwoFactorReset({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const reset = async () => {
    try {
      toastSuccess((await apiDelete<MessageResponse>(`/admin/users/${userId}/two-factor`)).message);
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" mb="md">
      <Text size="sm" c="dimmed">
        {t(
          'Lost phone? Resetting two-factor sign-in signs the user out; they sign in with the password alone or set it up again.',
        )}
      </Text>
      <ConfirmPopover message={t('Reset two-factor sign-in for this user?')} onConfirm={reset}>
        <Button
          size="xs"
          variant="light"
          color="orange"
          leftSection={<IconShieldOff size={14} />}
          style={{ flexShrink: 0 }}
        >
          {t('Reset two-factor')}
        </Button>
      </ConfirmPopover>
    </Group>
  );
}
