import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import type { SmsMessage, SmsSender } from '../../platform/sms/sms.ts';
import { outboxMessages } from './identity.tables.ts';

/** Where to note a delivered message in development (the server log). */
export type OutboxLog = (message: string, detail: Record<string, unknown>) => void;

/** One outbox row as the dev mailbox shows it. */
export interface OutboxItem {
  id: number;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  tag: string | null;
  createdAt: string;
}

/**
 * The embedded mail and SMS transport (ARCHITECTURE §6): messages are written to `outbox_messages`
 * and noted in the log (codes included, so a developer without the mailbox page still gets them).
 * Used only when no SMTP server / SMS provider is configured; never holds production mail.
 */
export class Outbox implements Mailer, SmsSender {
  constructor(
    private readonly db: Db,
    private readonly log: OutboxLog,
  ) {}

  async send(message: MailMessage | SmsMessage): Promise<void> {
    const isMail = 'subject' in message;
    await this.db.insert(outboxMessages).values({
      channel: isMail ? 'email' : 'sms',
      recipient: message.to,
      subject: isMail ? message.subject : '',
      body: message.text,
      tag: message.tag ?? null,
    });
    this.log('outbox message', { channel: isMail ? 'email' : 'sms', to: message.to, tag: message.tag, text: message.text });
  }

  /** The newest messages, optionally for one recipient; at most `limit` (capped at 200). */
  async list(recipient: string | undefined, limit = 50): Promise<OutboxItem[]> {
    const where: SQL | undefined = recipient ? eq(outboxMessages.recipient, recipient) : undefined;
    const rows = await this.db
      .select()
      .from(outboxMessages)
      .where(where)
      .orderBy(desc(outboxMessages.id))
      .limit(Math.min(Math.max(limit, 1), 200));
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  }

  /** Remove every message to `recipient` (account closure: personal data). */
  async forget(recipient: string): Promise<void> {
    await this.db.delete(outboxMessages).where(and(eq(outboxMessages.recipient, recipient)));
  }
}
