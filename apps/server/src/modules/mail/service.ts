import { count, desc, eq } from 'drizzle-orm';
import type { MailDto, MailLink, MailListResponse, PagedQuery } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { authTokens, mailOutbox } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';
import { LINK_WITHHELD } from '../../integrations/mail.ts';

/** What the text shows instead of a kept link that no longer works. */
export const LINK_EXPIRED = '[link no longer valid: used or expired]';

/** One outbox row with the state of the token behind its link (null when it had none or the token is gone). */
const columns = {
  mail: mailOutbox,
  token: {
    userId: authTokens.userId,
    kind: authTokens.kind,
    usedAt: authTokens.usedAt,
    expiresAt: authTokens.expiresAt,
  },
};
type Row = {
  mail: typeof mailOutbox.$inferSelect;
  token: { userId: number; kind: string; usedAt: Date | null; expiresAt: Date } | null;
};

const isLive = (r: Row, now: Date) => r.token !== null && r.token.usedAt === null && r.token.expiresAt > now;

/** The row as staff see it; the kept link goes into the text only when `reveal` asks and it still works. */
function toDto(r: Row, now: Date, reveal: boolean): MailDto {
  const m = r.mail;
  const live = isLive(r, now);
  let text = m.text;
  let link: MailLink = m.tokenId === null ? 'none' : m.secret === null ? 'emailed' : 'withheld';
  if (m.secret !== null) {
    const shown = reveal && live;
    text = text.split(LINK_WITHHELD).join(shown ? m.secret : live ? LINK_WITHHELD : LINK_EXPIRED);
    if (shown) link = 'shown';
  }
  return {
    id: m.id,
    to: m.to,
    subject: m.subject,
    text,
    created_at: m.createdAt.toISOString(),
    sent_at: m.sentAt?.toISOString() ?? null,
    error: m.error,
    link,
    link_live: live,
  };
}

const select = (db: DbOrTx) =>
  db.select(columns).from(mailOutbox).leftJoin(authTokens, eq(authTokens.id, mailOutbox.tokenId));

/** GET /admin/mail/api: the outbox, newest first, searched by recipient or subject. Never carries a link. */
export async function listMail(db: DbOrTx, q: PagedQuery): Promise<MailListResponse> {
  const where = searchAny(q.search, [mailOutbox.to, mailOutbox.subject]);
  const [{ n }] = await db.select({ n: count() }).from(mailOutbox).where(where);
  const rows = await select(db).where(where).orderBy(desc(mailOutbox.id)).limit(q.limit).offset(offsetOf(q));
  const now = new Date();
  // Without `reveal` the link is never `shown`, as the list schema requires.
  return { data: rows.map((r) => toDto(r, now, false) as MailListResponse['data'][number]), meta: pageMeta(q, n) };
}

/**
 * GET /admin/mail/:id: one mail, with its kept link while that still works. Whoever holds a live link can take
 * the account, so each such read is audited first (never the link itself); without the audit row, no link.
 */
export async function getMail(db: DbOrTx, id: number, actor: { id: number; ip: string }): Promise<MailDto> {
  const [r] = await select(db).where(eq(mailOutbox.id, id)).limit(1);
  if (!r) throw new AppError('MAIL_NOT_FOUND');
  const dto = toDto(r, new Date(), true);
  if (dto.link === 'shown' && r.token)
    await writeAudit(db, {
      actorId: actor.id,
      targetUserId: r.token.userId,
      action: 'mail.secret_read',
      after: { mail_id: r.mail.id, kind: r.token.kind, expires_at: r.token.expiresAt.toISOString() },
      ip: actor.ip,
    });
  return dto;
}

/** GET /admin/mail/delivery: whether mail leaves the platform, so the screen can say what the outbox holds. */
export const mailDelivery = (smtpEnabled: boolean) => ({
  mode: smtpEnabled ? ('smtp' as const) : ('offline' as const),
});
