import nodemailer, { type Transporter } from 'nodemailer';
import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A link in a mail that gives the reader the account (verification, password reset), and the token behind it. */
export interface MailSecret {
  link: string;
  tokenId: number;
}

/** What the outbox text shows instead of the link. */
export const LINK_EMAILED = '[link removed: sent by email only]';
export const LINK_WITHHELD = '[link hidden: open this mail to see it]';

/** Why a background job's retry sent nothing: the attempt before it stopped while SMTP had the mail. */
export const MAYBE_SENT =
  'Not sent again: the server stopped while handing this mail to SMTP, so it may have gone out. The customer can ask for another.';

export interface Mailer {
  /**
   * Records the mail in the outbox and, with SMTP configured, delivers it. Never throws on delivery failure.
   * A `secret` link in the text is never stored in the outbox text; without SMTP it is kept apart for the admin read.
   * A background job passes its id (`jobId`): the mail is recorded under it, and a refused one is replaced by the retry.
   * `delivered` is also true when another attempt of the same job holds the mail.
   */
  send(msg: MailMessage, secret?: MailSecret, jobId?: string): Promise<{ id: number; delivered: boolean }>;
  /**
   * Whether a background job's mail is still to be sent: no once it went out, was stored (without SMTP), or may have
   * gone out (an attempt stopped while SMTP had it, or is still at it: the mail is marked MAYBE_SENT); yes when there
   * is none yet or SMTP refused it. Asked before making the mail's single-use link, since a new link voids the last.
   */
  shouldSend(jobId: string): Promise<boolean>;
  readonly smtpEnabled: boolean;
}

const redact = (s: string, link: string, note: string) => s.split(link).join(note);

/**
 * Every mail is written to the outbox table first (the record staff read when no SMTP server is set),
 * then handed to SMTP when SMTP_URL is configured; the row keeps when it was sent or why it failed.
 * With SMTP the link goes only to the SMTP server; without it the link is kept in `secret` so an admin can
 * pass it on in evaluation setups (each such read is audited by the mail module).
 */
export function createMailer(db: Db, opts: { smtpUrl?: string; from: string }): Mailer {
  // Bounded, so a send ends well inside its job's expiry (jobs/queue.ts) rather than hanging on a silent server.
  const transport: Transporter | null = opts.smtpUrl
    ? nodemailer.createTransport({
        url: opts.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 10_000,
      })
    : null;
  return {
    smtpEnabled: transport !== null,
    async shouldSend(jobId) {
      const [row] = await db
        .select({ id: mailOutbox.id, sentAt: mailOutbox.sentAt, error: mailOutbox.error })
        .from(mailOutbox)
        .where(eq(mailOutbox.jobId, jobId));
      if (!row) return true;
      if (row.sentAt || !transport || row.error === MAYBE_SENT) return false;
      if (row.error !== null) return true;
      await db
        .update(mailOutbox)
        .set({ error: MAYBE_SENT })
        .where(and(eq(mailOutbox.id, row.id), isNull(mailOutbox.sentAt), isNull(mailOutbox.error)));
      return false;
    },
    async send(msg, secret, jobId) {
      // A link missing from the text would be stored nowhere yet reported as sent: a caller's mistake.
      if (secret && !msg.text.includes(secret.link)) throw new Error('mail secret is not in the mail text');
      const note = transport ? LINK_EMAILED : LINK_WITHHELD;
      const stored = secret
        ? {
            text: redact(msg.text, secret.link, note),
            html: msg.html === undefined ? null : redact(msg.html, secret.link, note),
            secret: transport ? null : secret.link,
            tokenId: secret.tokenId,
          }
        : { text: msg.text, html: msg.html ?? null };
      const values = { to: msg.to, subject: msg.subject, ...stored, jobId: jobId ?? null, error: null };
      // Under a job's id the row is new, or the one SMTP refused before: anything else belongs to another attempt.
      const [row] = await db
        .insert(mailOutbox)
        .values(values)
        .onConflictDoUpdate({
          target: mailOutbox.jobId,
          set: values,
          setWhere: and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.error), ne(mailOutbox.error, MAYBE_SENT)),
        })
        .returning({ id: mailOutbox.id });
      if (!row) return { id: 0, delivered: true };
      if (!transport) return { id: row.id, delivered: false };
      try {
        await transport.sendMail({ from: opts.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
        await db.update(mailOutbox).set({ sentAt: new Date(), error: null }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, delivered: true };
      } catch (err) {
        const message = String((err as Error).message);
        const error = (secret ? redact(message, secret.link, LINK_EMAILED) : message).slice(0, 500);
        await db.update(mailOutbox).set({ error }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, delivered: false };
      }
    },
  };
}
