import { MessageResponse, NotificationListResponse } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { listNotifications, markAllRead } from './service.ts';

export const notificationsRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;
  const tags = ['notifications'];

  app.get(
    '/notifications',
    { config: { access: 'user' }, schema: { tags, response: { 200: NotificationListResponse } } },
    async (req) => listNotifications(db, authOf(req).user.id),
  );

  app.post(
    '/notifications/read',
    { config: { access: 'user' }, schema: { tags, response: { 200: MessageResponse } } },
    async (req) => {
      await markAllRead(db, authOf(req).user.id);
      return { message: 'Notifications marked as read' };
    },
  );
};
