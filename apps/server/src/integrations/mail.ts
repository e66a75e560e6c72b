import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { and, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
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

/** What a run of a mail job that another run took over (before its text went) was stopped with. */
const TAKEN_OVER = 'another run of this job took the mail over';

/** sendMail's extra field (copied onto the message's data): claims the mail as its text starts to go to SMTP. */
interface HandOver {
  handOver?: () => Promise<boolean>;
}

/**
 * The message's text as SMTP reads it. The SMTP client reads it only once the server has taken the envelope and
 * DATA, and the server delivers nothing unless the text ends; so the mail is claimed right there, and a run whose
 * claim fails closes the connection before a byte of text.
 */
function gated(text: Readable, handOver: () => Promise<boolean>): Readable {
  return Readable.from(
    (async function* () {
      try {
        if (!(await handOver())) throw new Error(TAKEN_OVER);
        yield* text;
      } finally {
        text.destroy();
      }
    })(),
    { objectMode: false },
  );
}

export interface Mailer {
  /**
   * Records the mail in the outbox and, with SMTP configured, delivers it. Never throws on delivery failure.
   * A `secret` link in the text is never stored in the outbox text; without SMTP it is kept apart for the admin read.
   * A background job passes its id (`jobId`): the mail is recorded under it, and a retry takes over a mail SMTP refused
   * or one an earlier run had not yet begun to hand over (its instance died while connecting). `delivered` is false
   * when a retry should send it; it is also true when another run of the same job holds the mail, or when the
   * connection broke while the text was going (it may have gone out: marked MAYBE_SENT).
   */
  send(msg: MailMessage, secret?: MailSecret, jobId?: string): Promise<{ id: number; delivered: boolean }>;
  /**
   * Whether a background job's mail is still to be sent: no once it went out, was stored (without SMTP), or may have
   * gone out (an attempt stopped while SMTP had its text, or is still at it: the mail is marked MAYBE_SENT); yes when
   * there is none yet, SMTP refused it, or the run before had not begun to hand it over (its instance died while
   * connecting: that run can no longer hand it over). Asked before making the mail's single-use link, since a new
   * link voids the last.
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
  transport?.use('stream', (mail, done) => {
    const handOver = (mail.data as HandOver).handOver;
    if (handOver) {
      const message = mail.message;
      const text = message.createReadStream.bind(message);
      message.createReadStream = (options) => gated(text(options), handOver);
    }
    done();
  });
  return {
    smtpEnabled: transport !== null,
    async shouldSend(jobId) {
      for (let look = 0; look < 3; look++) {
        const [row] = await db
          .select({
            id: mailOutbox.id,
            sentAt: mailOutbox.sentAt,
            error: mailOutbox.error,
            attempt: mailOutbox.attempt,
            handedAt: mailOutbox.handedAt,
          })
          .from(mailOutbox)
          .where(eq(mailOutbox.jobId, jobId));
        if (!row) return true;
        if (row.sentAt || !transport || row.error === MAYBE_SENT) return false;
        if (row.error !== null) return true;
        if (row.attempt !== null && row.handedAt === null) {
          // The run before was still connecting: it can no longer hand the mail over once its attempt is replaced.
          const taken = await db
            .update(mailOutbox)
            .set({ attempt: randomUUID() })
            .where(
              and(
                eq(mailOutbox.id, row.id),
                eq(mailOutbox.attempt, row.attempt),
                isNull(mailOutbox.handedAt),
                isNull(mailOutbox.sentAt),
                isNull(mailOutbox.error),
              ),
            )
            .returning({ id: mailOutbox.id });
          if (taken.length > 0) return true;
          continue; // it moved on meanwhile: look again
        }
        // Its text was going to SMTP (or the row is older than hand-overs being recorded): it may have gone out.
        await db
          .update(mailOutbox)
          .set({ error: MAYBE_SENT })
          .where(and(eq(mailOutbox.id, row.id), isNull(mailOutbox.sentAt), isNull(mailOutbox.error)));
        return false;
      }
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
      const attempt = jobId ? randomUUID() : null;
      const values = {
        to: msg.to,
        subject: msg.subject,
        ...stored,
        jobId: jobId ?? null,
        error: null,
        attempt,
        handedAt: null,
      };
      // Under a job's id the row is new, one SMTP refused, or one an earlier run had not begun to hand over: anything
      // else (sent, being handed over, may have gone out) belongs to another run.
      const [row] = await db
        .insert(mailOutbox)
        .values(values)
        .onConflictDoUpdate({
          target: mailOutbox.jobId,
          set: values,
          setWhere: and(
            isNull(mailOutbox.sentAt),
            or(
              and(isNotNull(mailOutbox.error), ne(mailOutbox.error, MAYBE_SENT)),
              and(isNull(mailOutbox.error), isNull(mailOutbox.handedAt), isNotNull(mailOutbox.attempt)),
            ),
          ),
        })
        .returning({ id: mailOutbox.id });
      if (!row) return { id: 0, delivered: true };
      if (!transport) return { id: row.id, delivered: false };
      const mine = attempt
        ? and(eq(mailOutbox.id, row.id), eq(mailOutbox.attempt, attempt))
        : eq(mailOutbox.id, row.id);
      let handed = false;
      let lost = false;
      const handOver = async () => {
        const claimed = await db
          .update(mailOutbox)
          .set({ handedAt: new Date() })
          .where(and(mine, isNull(mailOutbox.handedAt), isNull(mailOutbox.sentAt), isNull(mailOutbox.error)))
          .returning({ id: mailOutbox.id });
        handed = claimed.length > 0;
        lost = !handed;
        return handed;
      };
      try {
        const mail: SendMailOptions & HandOver = {
          from: opts.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          html: msg.html,
          ...(attempt ? { handOver } : {}),
        };
        await transport.sendMail(mail);
        await db.update(mailOutbox).set({ sentAt: new Date(), error: null }).where(mine);
        return { id: row.id, delivered: true };
      } catch (err) {
        // Another run took the mail over before its text went: that run sends it.
        if (lost) return { id: row.id, delivered: true };
        // Cut off while the text was going, with no answer from the server: it may have gone out; not sent again.
        const maybe = handed && (err as { responseCode?: number }).responseCode === undefined;
        const message = String((err as Error).message);
        const error = maybe
          ? MAYBE_SENT
          : (secret ? redact(message, secret.link, LINK_EMAILED) : message).slice(0, 500);
        await db.update(mailOutbox).set({ error }).where(mine);
        return { id: row.id, delivered: maybe };
      }
    },
  };
}
