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

export interface Mailer {
  /** Records the mail in the outbox and, with SMTP configured, delivers it. Never throws on delivery failure. */
  send(msg: MailMessage): Promise<{ id: number; delivered: boolean }>;
  readonly smtpEnabled: boolean;
}

/**
 * Every mail is written to the outbox table first (the record staff read when no SMTP server is set),
 * then handed to SMTP when SMTP_URL is configured; the row keeps when it was sent or why it failed.
 */
export function createMailer(db: Db, opts: { smtpUrl?: string; from: string }): Mailer {
  const transport: Transporter | null = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  return {
    smtpEnabled: transport !== null,
    async send(msg) {
      const [row] = await db
        .insert(mailOutbox)
        .values({ to: msg.to, subject: msg.subject, text: msg.text, html: msg.html ?? null })
        .returning({ id: mailOutbox.id });
      if (!transport) return { id: row.id, delivered: false };
      try {
        await transport.sendMail({ from: opts.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
        await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, delivered: true };
      } catch (err) {
        await db.update(mailOutbox).set({ error: String((err as Error).message).slice(0, 500) }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, delivered: false };
      }
    },
  };
}
