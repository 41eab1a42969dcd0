import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { hashesEqual, keyedHash, randomNumericCode, randomToken } from '../../platform/security/one-time-codes.ts';
import { flowTickets, verificationCodes } from './identity.tables.ts';

/** Rules of one-time codes. */
export const CODE_RULES = {
  codeTtlMs: 10 * 60_000,
  resendAfterMs: 59_000,
  /** Sends per address in 24 hours, over every event. */
  sendsPerDayMax: 20,
  /** Wrong tries after which a code is void. */
  wrongTriesMax: 5,
  ticketTtlMs: 15 * 60_000,
} as const;

export type CodeChannel = 'email' | 'sms';
export type TicketPurpose = 'login' | 'register' | 'recover';

/** The key a code or ticket is hashed in: channel, address and event are bound into the hash. */
function codeContext(channel: CodeChannel, address: string, event: string, id: string): string {
  return `code:${channel}:${address}:${event}:${id}`;
}

/**
 * Issues and checks one-time codes and flow tickets. Codes: 6 digits from the CSPRNG, kept as an
 * HMAC, valid 10 minutes, used once, bound to channel + address + event (+ user), one send per 59 s
 * (`resendAfterMs`) per (address, event) and 20 per address per day, void after 5 wrong tries.
 */
export class VerificationCodes {
  /**
   * @param clock the app's clock: expiries, the resend wait and the daily cap are read from it.
   * @param resendAfterMs time before another code for the same address and event: 59 s
   *   (`CODE_RULES.resendAfterMs`) unless a test server is configured shorter (CODE_RESEND_AFTER_SECONDS).
   */
  constructor(
    private readonly db: Db,
    private readonly hmacKey: string,
    private readonly clock: Clock,
    private readonly resendAfterMs: number = CODE_RULES.resendAfterMs,
  ) {}

  /** The resend wait a delivered code answers with, in seconds. */
  get resendAfterSeconds(): number {
    return Math.ceil(this.resendAfterMs / 1000);
  }

  /**
   * Create a code for (channel, address, event), voiding older ones, and return it for delivery.
   * The 59 s resend wait counts from the newest code unless an action used it up: a consumed code
   * holds no cooldown, so the next action of the same kind gets a new code at once (the daily cap
   * and the per-IP limit still apply). A code voided by wrong tries keeps its cooldown. See
   * docs/identity.md "Codes".
   * @throws DomainError CODE_RESEND_WAIT within 59 s of the last send, its content `{ retryAfterSeconds,
   *   hasUnusedCode }` (whether that code can still be entered); RATE_LIMITED past the daily cap.
   */
  async issue(channel: CodeChannel, address: string, event: string, userId: string | null): Promise<string> {
    const now = this.clock.now().getTime();
    const [latest] = await this.db
      .select({
        createdAt: verificationCodes.createdAt,
        usedAt: verificationCodes.usedAt,
        wrongTryCount: verificationCodes.wrongTryCount,
      })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.address, address), eq(verificationCodes.event, event)))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    const isConsumed =
      latest !== undefined && latest.usedAt !== null && latest.wrongTryCount < CODE_RULES.wrongTriesMax;
    if (latest && !isConsumed && now - latest.createdAt.getTime() < this.resendAfterMs) {
      const seconds = Math.ceil((this.resendAfterMs - (now - latest.createdAt.getTime())) / 1000);
      throw new DomainError(
        'CODE_RESEND_WAIT',
        { seconds },
        { retryAfterSeconds: seconds, hasUnusedCode: latest.usedAt === null },
      );
    }
    const [daily] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.address, address), gt(verificationCodes.createdAt, new Date(now - 86_400_000))));
    if ((daily?.count ?? 0) >= CODE_RULES.sendsPerDayMax) throw new DomainError('RATE_LIMITED');

    const id = randomUUID();
    const code = randomNumericCode(6);
    await this.db.transaction(async (tx) => {
      await tx
        .update(verificationCodes)
        .set({ usedAt: new Date(now) })
        .where(
          and(
            eq(verificationCodes.address, address),
            eq(verificationCodes.event, event),
            isNull(verificationCodes.usedAt),
          ),
        );
      await tx.insert(verificationCodes).values({
        id,
        channel,
        address,
        event,
        userId,
        codeHash: keyedHash(this.hmacKey, codeContext(channel, address, event, id), code),
        createdAt: new Date(now),
        expiresAt: new Date(now + CODE_RULES.codeTtlMs),
      });
    });
    return code;
  }

  /**
   * Release the resend cooldown of the newest code for (channel, address, event) — its mail could not
   * be sent at once — by moving its `createdAt` back by `resendAfterMs`. The code
   * keeps its expiry and stays valid (its mail is retried); it still counts toward the daily cap.
   */
  async releaseCooldown(channel: CodeChannel, address: string, event: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE ${verificationCodes} SET created_at = created_at - ${this.resendAfterMs} * interval '1 millisecond'
      WHERE id = (SELECT id FROM ${verificationCodes} WHERE channel = ${channel} AND address = ${address} AND event = ${event} ORDER BY created_at DESC LIMIT 1)`);
  }

  /**
   * Check `code` for (channel, address, event). A wrong code counts a try (the fifth voids it).
   * With `consume`, a right code is used up atomically (a second use fails).
   * @throws DomainError CAPTCHA_FAILED (119) when wrong, expired, used, void, or for another user.
   */
  async check(
    channel: CodeChannel,
    address: string,
    event: string,
    code: string,
    options: { consume: boolean; userId?: string },
  ): Promise<string> {
    const now = this.clock.now();
    const [row] = await this.db
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.channel, channel),
          eq(verificationCodes.address, address),
          eq(verificationCodes.event, event),
          isNull(verificationCodes.usedAt),
          gt(verificationCodes.expiresAt, now),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    if (!row) throw new DomainError('CAPTCHA_FAILED');
    if (options.userId !== undefined && row.userId !== null && row.userId !== options.userId)
      throw new DomainError('CAPTCHA_FAILED');
    const expected = keyedHash(this.hmacKey, codeContext(channel, address, event, row.id), code);
    if (!hashesEqual(expected, row.codeHash)) {
      await this.db
        .update(verificationCodes)
        .set({
          wrongTryCount: sql`${verificationCodes.wrongTryCount} + 1`,
          usedAt: sql`CASE WHEN ${verificationCodes.wrongTryCount} + 1 >= ${CODE_RULES.wrongTriesMax} THEN ${now.toISOString()}::timestamptz ELSE NULL END`,
        })
        .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.usedAt)));
      throw new DomainError('CAPTCHA_FAILED');
    }
    if (options.consume) await this.consume(this.db, row.id);
    return row.id;
  }

  /**
   * Use up the code `codeId` that `check` accepted, on `db` — a caller's transaction, so the code is
   * used up only if the action it authorises commits. A conditional update: of two
   * requests racing with one code, the second finds it used.
   * @throws DomainError CAPTCHA_FAILED when the code was used up meanwhile.
   */
  async consume(db: DbOrTx, codeId: string): Promise<void> {
    const used = await db
      .update(verificationCodes)
      .set({ usedAt: this.clock.now() })
      .where(and(eq(verificationCodes.id, codeId), isNull(verificationCodes.usedAt)))
      .returning({ id: verificationCodes.id });
    if (used.length === 0) throw new DomainError('CAPTCHA_FAILED');
  }

  /** Remove every code sent to `address` (account closure). */
  async forgetAddress(address: string): Promise<void> {
    await this.db.delete(verificationCodes).where(eq(verificationCodes.address, address));
  }

  /** Hand out a ticket for `purpose` bound to `email` (and the user, for login). */
  async issueTicket(purpose: TicketPurpose, email: string, userId: string | null): Promise<string> {
    const token = randomToken();
    await this.db.insert(flowTickets).values({
      tokenHash: keyedHash(this.hmacKey, 'ticket', token),
      purpose,
      email,
      userId,
      expiresAt: new Date(this.clock.now().getTime() + CODE_RULES.ticketTtlMs),
    });
    return token;
  }

  /**
   * The ticket's row when it is live, unused and for this purpose and email.
   * @throws DomainError CAPTCHA_FAILED otherwise (the flow restarts with a new human check).
   */
  async checkTicket(token: string, purpose: TicketPurpose, email: string): Promise<{ userId: string | null }> {
    const [row] = await this.db
      .select()
      .from(flowTickets)
      .where(
        and(
          eq(flowTickets.tokenHash, keyedHash(this.hmacKey, 'ticket', token)),
          isNull(flowTickets.usedAt),
          gt(flowTickets.expiresAt, this.clock.now()),
        ),
      )
      .limit(1);
    if (!row || row.purpose !== purpose || row.email !== email) throw new DomainError('CAPTCHA_FAILED');
    return { userId: row.userId };
  }

  /** Use a ticket up at the end of its flow. */
  async consumeTicket(token: string): Promise<void> {
    await this.db
      .update(flowTickets)
      .set({ usedAt: this.clock.now() })
      .where(eq(flowTickets.tokenHash, keyedHash(this.hmacKey, 'ticket', token)));
  }
}
