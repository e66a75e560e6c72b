import { z } from 'zod';
import { NotificationDto } from './misc.ts';

/** GET /notifications: the caller's latest notifications and how many of all theirs are unread. */
export const NotificationListResponse = z.object({ data: z.array(NotificationDto), unread: z.number().int() });
export type NotificationListResponse = z.infer<typeof NotificationListResponse>;

/** What server code passes to notify(); also the shape staff tools would post. */
export const NotificationInput = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional().nullable(),
  url: z.string().max(2000).optional().nullable(),
});
export type NotificationInput = z.input<typeof NotificationInput>;
