import { z } from 'zod';
import { paged } from './common.ts';
import { MailDto, MailLink } from './misc.ts';
import { StaffUserDto } from './users.ts';

/** GET /admin/users/api */
export const StaffUserListResponse = paged(StaffUserDto);
export type StaffUserListResponse = z.infer<typeof StaffUserListResponse>;

/** POST /admin/users: the message the form toasts and the created row. */
export const StaffUserCreatedResponse = z.object({ message: z.string(), user: StaffUserDto });
export type StaffUserCreatedResponse = z.infer<typeof StaffUserCreatedResponse>;

/** GET /admin/mail/api: the list never carries a link (the single read does, audited). */
export const MailListResponse = paged(MailDto.extend({ link: MailLink.exclude(['shown']) }));
export type MailListResponse = z.infer<typeof MailListResponse>;

/** POST /admin/customers/login-as/{id}: the browser goes to `redirect` with the customer's session. */
export const LoginAsResponse = z.object({ message: z.string(), redirect: z.string() });
export type LoginAsResponse = z.infer<typeof LoginAsResponse>;
