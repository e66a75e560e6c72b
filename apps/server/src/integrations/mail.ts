import nodemailer, { type Transporter } from 'nodemailer';
import { eq } from 'drizzle-orm';
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

export interface Mailer {
  /**
   * Records the mail in the outbox and, with SMTP configured, delivers it. Never throws on delivery failure.
   * A `secret` link in the text is never stored in the outbox text; without SMTP it is kept apart for the admin read.
   */
  send(msg: MailMessage, secret?: MailSecret): Promise<{ id: number; delivered: boolean }>;
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
  const transport: Transporter | null = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  return {
    smtpEnabled: transport !== null,
    async send(msg, secret) {
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
      const [row] = await db
        .insert(mailOutbox)
        .values({ to: msg.to, subject: msg.subject, ...stored })
        .returning({ id: mailOutbox.id });
      if (!transport) return { id: row.id, delivered: false };
      try {
        await transport.sendMail({ from: opts.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
        await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
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
