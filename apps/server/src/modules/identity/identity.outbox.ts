import type { Clock } from '../../platform/clock/clock.ts';
import { and, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import type { SmsMessage, SmsSender } from '../../platform/sms/sms.ts';
import { outboxMessages } from './identity.tables.ts';

/** Where to note a queued or failed message (the server log); `level` defaults to info. */
export type OutboxLog = (message: string, detail: Record<string, unknown>, level?: 'info' | 'warn') => void;

/** One outbox row as the dev mailbox shows it. */
export interface OutboxItem {
  id: number;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  tag: string | null;
  /** LOCAL (kept here, no transport), PENDING (to be sent), SENT, FAILED (attempts used up). */
  status: string;
  attempts: number;
  createdAt: string;
}

/**
 * Delivery rules of the mail outbox: a queued mail is tried at once by the
 * request that queued it, then by the `identity.mail-delivery` job every `periodMs`; attempt n that
 * fails waits `firstRetryMs × 2^(n−1)` (capped at `retryCapMs`) before the next; after
 * `attemptsMax` attempts the row is marked FAILED. A row being tried is leased for `leaseMs` so the
 * job and a request never send it twice at once.
 */
export const MAIL_DELIVERY = {
  attemptsMax: 8,
  firstRetryMs: 30_000,
  retryCapMs: 3_600_000,
  leaseMs: 60_000,
  periodMs: 15_000,
  batchRows: 20,
} as const;

/** Delay before the attempt after failed attempt number `attempts` (1-based), in ms. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAIL_DELIVERY.firstRetryMs * 2 ** Math.max(attempts - 1, 0), MAIL_DELIVERY.retryCapMs);
}

type OutboxRow = typeof outboxMessages.$inferSelect;

/**
 * The durable mail and SMS outbox (docs/architecture.md "Outside world"). Every message is first a row of
 * `outbox_messages`, written in the caller's transaction when it passes one, so a mail exists only
 * if what it reports committed. Without a transport (no `SMTP_URL`; SMS until a provider exists)
 * the row is the delivery (status LOCAL: the dev mailbox shows it, the log notes it, codes
 * included). With a transport the row is PENDING until `deliver` (at once, by the request) or the
 * delivery job sends it, with retries and backoff (`MAIL_DELIVERY`); a failure never fails the
 * request, it is logged and counted (`failuresTotal`, `backlog`).
 */
export class Outbox implements Mailer, SmsSender {
  /** Failed delivery attempts since the process started (the metric meridian_mail_delivery_failures_total). */
  failuresTotal = 0;

  constructor(
    private readonly db: Db,
    private readonly log: OutboxLog,
    /** The app's clock: when a message is due and was sent. */
    private readonly clock: Clock,
    /** The real mail transport (SMTP); undefined keeps mail local (development). */
    private readonly transport?: Mailer,
  ) {}

  /** Queue a message (in `tx` when given) and return its row id; nothing is sent yet. */
  async enqueue(message: MailMessage | SmsMessage, tx: DbOrTx = this.db): Promise<{ id: number; isPending: boolean }> {
    const isMail = 'subject' in message;
    const isPending = isMail && this.transport !== undefined;
    const [row] = await tx
      .insert(outboxMessages)
      .values({
        channel: isMail ? 'email' : 'sms',
        recipient: message.to,
        subject: isMail ? message.subject : '',
        body: message.text,
        tag: message.tag ?? null,
        status: isPending ? 'PENDING' : 'LOCAL',
        nextAttemptAt: isPending ? this.clock.now() : null,
      })
      .returning({ id: outboxMessages.id });
    if (!row) throw new Error('outbox insert returned nothing');
    if (!isPending)
      this.log('outbox message', {
        channel: isMail ? 'email' : 'sms',
        to: message.to,
        tag: message.tag,
        text: message.text,
      });
    return { id: row.id, isPending };
  }

  /**
   * `Mailer`/`SmsSender`: queue and try once at once. Never rejects for a transport failure (the
   * job retries); rejects only when the row cannot be written.
   */
  async send(message: MailMessage | SmsMessage): Promise<void> {
    const queued = await this.enqueue(message);
    if (queued.isPending) await this.deliver(queued.id);
  }

  /**
   * Try to send queued row `id` now, outside any transaction. `true` when it was sent (or was no
   * longer pending); `false` when the attempt failed (the row waits for its retry) or another
   * sender holds it.
   */
  async deliver(id: number): Promise<boolean> {
    const now = this.clock.now();
    const [row] = await this.db
      .update(outboxMessages)
      .set({ nextAttemptAt: new Date(now.getTime() + MAIL_DELIVERY.leaseMs) })
      .where(
        and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'PENDING'), lte(outboxMessages.nextAttemptAt, now)),
      )
      .returning();
    if (!row) {
      const [current] = await this.db
        .select({ status: outboxMessages.status })
        .from(outboxMessages)
        .where(eq(outboxMessages.id, id));
      return current?.status === 'SENT' || current?.status === 'LOCAL';
    }
    return this.attempt(this.db, row);
  }

  /** Send one claimed row and record the outcome through `db`. */
  private async attempt(db: DbOrTx, row: OutboxRow): Promise<boolean> {
    const attempts = row.attempts + 1;
    try {
      if (!this.transport) throw new Error('no mail transport');
      await this.transport.send({
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        ...(row.tag ? { tag: row.tag } : {}),
      });
      await db
        .update(outboxMessages)
        .set({ status: 'SENT', attempts, sentAt: this.clock.now(), nextAttemptAt: null, lastError: null })
        .where(eq(outboxMessages.id, row.id));
      return true;
    } catch (error) {
      this.failuresTotal += 1;
      const isLast = attempts >= MAIL_DELIVERY.attemptsMax;
      const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await db
        .update(outboxMessages)
        .set({
          attempts,
          lastError,
          status: isLast ? 'FAILED' : 'PENDING',
          nextAttemptAt: isLast ? null : new Date(this.clock.now().getTime() + retryDelayMs(attempts)),
        })
        .where(eq(outboxMessages.id, row.id));
      this.log(
        'mail delivery failed',
        { outboxId: row.id, tag: row.tag, attempts, isGivenUp: isLast, err: lastError },
        'warn',
      );
      return false;
    }
  }

  /**
   * The delivery job's work for one period: in `tx` (which holds the job's advisory lock), take up
   * to `batchRows` due PENDING rows (`FOR UPDATE SKIP LOCKED`) and try each.
   * @returns how many were sent.
   */
  async deliverDue(tx: DbOrTx, now: Date): Promise<number> {
    const result: unknown = await tx.execute(sql`
      SELECT id FROM ${outboxMessages}
      WHERE status = 'PENDING' AND next_attempt_at <= ${now.toISOString()}::timestamptz
      ORDER BY next_attempt_at, id LIMIT ${MAIL_DELIVERY.batchRows} FOR UPDATE SKIP LOCKED`);
    const ids = ((result as { rows?: { id: number | string }[] }).rows ?? []).map((row) => Number(row.id));
    let sentCount = 0;
    for (const id of ids) {
      const [row] = await tx.select().from(outboxMessages).where(eq(outboxMessages.id, id));
      if (row && (await this.attempt(tx, row))) sentCount += 1;
    }
    return sentCount;
  }

  /** Mails waiting to be sent (PENDING), for the backlog gauge. */
  async backlog(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outboxMessages)
      .where(eq(outboxMessages.status, 'PENDING'));
    return Number(row?.n ?? 0);
  }

  /** The delivery job (only when a transport is configured): every `MAIL_DELIVERY.periodMs`. */
  jobs(): JobDefinition[] {
    if (!this.transport) return [];
    return [
      {
        name: 'identity.mail-delivery',
        periodMs: MAIL_DELIVERY.periodMs,
        run: async ({ tx, now }) => void (await this.deliverDue(tx, now)),
      },
    ];
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
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      tag: row.tag,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /** Remove every message to `recipient` (account closure: personal data). */
  async forget(recipient: string): Promise<void> {
    await this.db.delete(outboxMessages).where(eq(outboxMessages.recipient, recipient));
  }
}
