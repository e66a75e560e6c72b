import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { NotificationInput, type NotificationDto, type NotificationListResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';

type NotificationRow = typeof notifications.$inferSelect;

/** How many notifications the dropdown lists; older ones stay stored but are not sent. */
export const NOTIFICATION_LIST_SIZE = 50;

export const notificationDto = (n: NotificationRow): NotificationDto => ({
  id: n.id,
  title: n.title,
  description: n.description,
  url: n.url,
  created_at: n.createdAt.toISOString(),
  read: n.readAt !== null,
});

/** The realtime event that carries a user's notifications (client-area spec §7). */
export const userEvent = (userId: number): string => `user:${userId}`;

/**
 * Stores a notification without sending it; for callers inside a transaction, who emit with
 * emitNotification() after the commit so nobody is told about a change that was rolled back.
 */
export async function insertNotification(
  db: DbOrTx,
  userId: number,
  input: NotificationInput,
): Promise<NotificationDto> {
  const v = NotificationInput.parse(input);
  const [row] = await db
    .insert(notifications)
    .values({ userId, title: v.title, description: v.description ?? null, url: v.url ?? null })
    .returning();
  return notificationDto(row);
}

export function emitNotification(ctx: Pick<AppContext, 'realtime'>, userId: number, dto: NotificationDto): void {
  ctx.realtime.toUser(userId, userEvent(userId), dto);
}

/** Stores a notification for a user and pushes it to their open sockets as `user:{id}`. */
export async function notify(
  ctx: Pick<AppContext, 'db' | 'realtime'>,
  userId: number,
  input: NotificationInput,
): Promise<NotificationDto> {
  const dto = await insertNotification(ctx.db, userId, input);
  emitNotification(ctx, userId, dto);
  return dto;
}

/** GET /notifications: only the caller's own rows, newest first, with the count of all unread. */
export async function listNotifications(db: DbOrTx, userId: number): Promise<NotificationListResponse> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATION_LIST_SIZE);
  const [{ n }] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { data: rows.map(notificationDto), unread: n };
}

/** POST /notifications/read: marks every unread notification of the caller as read. */
export async function markAllRead(db: DbOrTx, userId: number): Promise<number> {
  const done = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return done.length;
}

/**
 * Stores a notification for the staff who look after a customer's money and papers: every active admin, and the
 * customer's manager when `withManager`. Returns what to emit after the commit.
 */
export async function insertStaffNotifications(
  db: DbOrTx,
  customerId: number,
  input: NotificationInput,
  withManager: boolean,
): Promise<Array<{ userId: number; dto: NotificationDto }>> {
  const managerOfCustomer = sql`${users.id} = (select manager_id from user_profiles where user_id = ${customerId})`;
  const staff = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.deletedAt),
        withManager ? or(eq(users.roleId, 1), and(eq(users.roleId, 2), managerOfCustomer)) : eq(users.roleId, 1),
      ),
    );
  const out: Array<{ userId: number; dto: NotificationDto }> = [];
  for (const s of staff) out.push({ userId: s.id, dto: await insertNotification(db, s.id, input) });
  return out;
}

/** Sends notifications stored in a committed transaction. */
export function emitAll(
  ctx: Pick<AppContext, 'realtime'>,
  list: ReadonlyArray<{ userId: number; dto: NotificationDto }>,
): void {
  for (const n of list) emitNotification(ctx, n.userId, n.dto);
}
