import { lazy } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NotificationDto } from '@platform/domain';
import { queryKeys, useNotifications } from '../../api/hooks.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { toastInfo } from '../toast.ts';
import { MenuOnUse } from './MenuOnUse.tsx';
import { bellTarget } from './menuTargets.tsx';
import { playNotificationSound } from './notificationSound.ts';

const loadDropdown = () => import('./NotificationsDropdown.tsx');
const NotificationsDropdown = lazy(() => loadDropdown().then((m) => ({ default: m.NotificationsDropdown })));

/** What the server pushes on `user:{id}`: at least a title; the rest may be missing. */
type LiveNotification = Partial<Pick<NotificationDto, 'title' | 'description' | 'url'>>;

export interface NotificationsMenuProps {
  userId: number;
}

/**
 * The bell with the unread count, refreshed live from the `user:{id}` realtime event (a toast and a sound for each);
 * its dropdown list loads when the bell is first reached for.
 */
export function NotificationsMenu({ userId }: NotificationsMenuProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data } = useNotifications();

  useRealtimeEvent<LiveNotification>(`user:${userId}`, (payload) => {
    toastInfo(payload?.title ?? t('New notification'), payload?.description);
    playNotificationSound();
    void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  });

  const unread = data?.unread ?? 0;
  return (
    <MenuOnUse
      load={loadDropdown}
      target={(on) => bellTarget(unread, t('Notifications'), on)}
      menu={(target) => <NotificationsDropdown defaultOpened target={target} />}
    />
  );
}
