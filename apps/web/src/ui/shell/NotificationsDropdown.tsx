import type { ReactElement } from 'react';
import { Menu, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type NotificationDto } from '@platform/domain';
import { useNotifications } from '../../api/hooks.ts';

export interface NotificationsDropdownProps {
  /** The bell (NotificationsMenu draws it, with the unread count, before this menu has loaded). */
  target: ReactElement;
  defaultOpened?: boolean;
}

/** The list of the user's notifications under the bell; loads the first time the bell is reached for. */
export function NotificationsDropdown({ target, defaultOpened = false }: NotificationsDropdownProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useNotifications();

  function open(n: NotificationDto) {
    if (!n.url) return;
    // Links inside the app stay in the single-page app; anything else opens in a new tab.
    if (n.url.startsWith('/')) void navigate(n.url);
    else window.open(n.url, '_blank', 'noopener,noreferrer');
  }

  const items = data?.data ?? [];
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={320} defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown p={0}>
        <Menu.Label px="md" pt="sm">
          {t('Notifications')}
        </Menu.Label>
        <ScrollArea.Autosize mah={360}>
          {items.length === 0 ? (
            <Text size="sm" c="dimmed" px="md" pb="md">
              {isLoading ? t('Loading...') : t('No notifications yet')}
            </Text>
          ) : (
            <Stack gap={0}>
              {items.map((n) => (
                <UnstyledButton
                  key={n.id}
                  onClick={() => open(n)}
                  px="md"
                  py="sm"
                  style={{ cursor: n.url ? 'pointer' : 'default', borderTop: '1px solid var(--mantine-color-dark-4)' }}
                  data-unread={!n.read || undefined}
                >
                  <Text size="sm" fw={n.read ? 500 : 700}>
                    {n.title}
                  </Text>
                  {n.description && (
                    <Text size="xs" c="dimmed" lineClamp={3}>
                      {n.description}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed" mt={4}>
                    {formatDateTime(n.created_at)}
                  </Text>
                </UnstyledButton>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
      </Menu.Dropdown>
    </Menu>
  );
}
