import { z } from 'zod';
import { optionalString, requiredString } from './common.ts';
import { NotificationDto } from './misc.ts';

/** GET /notifications: the caller's latest notifications and how many of all theirs are unread. */
export const NotificationListResponse = z.object({ data: z.array(NotificationDto), unread: z.number().int() });
export type NotificationListResponse = z.infer<typeof NotificationListResponse>;

/** What server code passes to notify(); also the shape staff tools would post. */
export const NotificationInput = z.object({
  title: requiredString('Title is required', 200),
  description: optionalString(2000),
  url: optionalString(2000),
});
export type NotificationInput = z.input<typeof NotificationInput>;
