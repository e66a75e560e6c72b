import { count, desc, eq } from 'drizzle-orm';
import type { MailDto, MailListResponse, PagedQuery } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';

type MailRow = typeof mailOutbox.$inferSelect;

const toDto = (m: MailRow): MailDto => ({
  id: m.id,
  to: m.to,
  subject: m.subject,
  text: m.text,
  created_at: m.createdAt.toISOString(),
  sent_at: m.sentAt?.toISOString() ?? null,
  error: m.error,
});

/** GET /admin/mail/api: the outbox, newest first, searched by recipient or subject. */
export async function listMail(db: DbOrTx, q: PagedQuery): Promise<MailListResponse> {
  const where = searchAny(q.search, [mailOutbox.to, mailOutbox.subject]);
  const [{ n }] = await db.select({ n: count() }).from(mailOutbox).where(where);
  const rows = await db.select().from(mailOutbox).where(where).orderBy(desc(mailOutbox.id)).limit(q.limit).offset(offsetOf(q));
  return { data: rows.map(toDto), meta: pageMeta(q, n) };
}

export async function getMail(db: DbOrTx, id: number): Promise<MailDto> {
  const [m] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  if (!m) throw new AppError('MAIL_NOT_FOUND');
  return toDto(m);
}
