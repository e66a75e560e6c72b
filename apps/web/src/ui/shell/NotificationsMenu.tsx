import { ActionIcon, Indicator, Menu, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type NotificationDto } from '@platform/domain';
import { queryKeys, useNotifications } from '../../api/hooks.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { toastInfo } from '../toast.ts';
import { playNotificationSound } from './notificationSound.ts';

/** What the server pushes on `user:{id}`: at least a title; the rest may be missing. */
type LiveNotification = Partial<Pick<NotificationDto, 'title' | 'description' | 'url'>>;

export interface NotificationsMenuProps {
  userId: number;
}

/** Bell dropdown of the user's notifications, refreshed live from the `user:{id}` realtime event. */
export function NotificationsMenu({ userId }: NotificationsMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data, isLoading } = useNotifications();

  useRealtimeEvent<LiveNotification>(`user:${userId}`, (payload) => {
    toastInfo(payload?.title ?? t('New notification'), payload?.description);
    playNotificationSound();
    void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  });

  function open(n: NotificationDto) {
    if (!n.url) return;
    // Links inside the app stay in the single-page app; anything else opens in a new tab.
    if (n.url.startsWith('/')) void navigate(n.url);
    else window.open(n.url, '_blank', 'noopener,noreferrer');
  }

  const items = data?.data ?? [];
  const unread = data?.unread ?? 0;
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={320}>
      <Menu.Target>
        <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} color="red" offset={4}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('Notifications')}>
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Menu.Target>
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
