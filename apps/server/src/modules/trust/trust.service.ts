import type { Locale } from '@meridian/contracts/locale';
import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import {
  type OpsTrust,
  type ParsedCreateTrustBody,
  sharePctToBps,
  shareBpsToPct,
  TRUST_ASSET,
  TRUST_FUND_MIN_MINOR,
  type Trust,
  type TrustDetail,
  type TrustMovement,
  type TrustMovementKind,
  type TrustState,
  TRUSTS_PER_USER_MAX,
  trustEntrustment,
} from '@meridian/contracts/trust';
import dayjs from 'dayjs';
import { and, asc, count, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { HoldingsChecker } from '../../platform/app-module.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, trustAccount, userAccount } from '../ledger/ledger.types.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { trustInactivityMessages, trustMovementMessage } from './trust.messages.ts';
import { type StoredBeneficiary, trustInactivityNotices, trustMovements, trusts } from './trust.tables.ts';

/** What the trust service needs from other modules (by their services) and the platform. */
export interface TrustServiceDeps {
  db: Db;
  identity: {
    /** ACCOUNT_FROZEN (152) for a frozen account: it moves no money. */
    assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
    /** Last sign-in per user (≤ 500 ids; closed accounts left out). */
    lastSignInAtOf(userIds: readonly string[], db?: DbOrTx): Promise<Map<string, Date>>;
    /** Language and email per user (≤ 500 ids; closed accounts left out). */
    recipientsOf(
      userIds: readonly string[],
      db?: DbOrTx,
    ): Promise<Map<string, { locale: Locale; email: string | null }>>;
  };
  /** In-app messages (up to 500 per call), in the caller's transaction. */
  notifyMany(inputs: NotifyInput[], tx: DbOrTx): Promise<unknown>;
  /** The mail outbox: a row in the caller's transaction, sent after it commits. */
  enqueueMail(message: MailMessage, tx: DbOrTx): Promise<unknown>;
  /** The app's clock (tests pass a fake one). */
  now(): Date;
  log?: { info(detail: object, message: string): void };
}

/**
 * The sensitive-action check a money-moving call runs last (the request's `SensitiveAction`): see
 * `platform/http/auth.ts`. `NO_FACTORS` for callers that are not HTTP requests.
 */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}
const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

/** Trusts of one inactivity-job batch; the batches of one run are bounded by `INACTIVITY_BATCHES_MAX`. */
export const INACTIVITY_BATCH_ROWS = 500;
const INACTIVITY_BATCHES_MAX = 400;
/** One day in milliseconds (reminder thresholds are whole days before the deadline). */
const DAY_MS = 86_400_000;

type TrustRow = typeof trusts.$inferSelect;
type MovementRow = typeof trustMovements.$inferSelect;

const btc = (minor: bigint) => toDecimalString(minor, TRUST_ASSET);

function toMovement(row: MovementRow): TrustMovement {
  return {
    id: row.id,
    kind: row.kind as TrustMovementKind,
    amount: btc(row.amountMinor),
    fee: btc(row.feeMinor),
    net: btc(row.netMinor),
    createdAt: row.createdAt.toISOString(),
  };
}

function toTrust(row: TrustRow, holdingMinor: bigint): Trust {
  return {
    id: row.id,
    name: row.name,
    state: row.state as TrustState,
    termMonths: row.termMonths,
    termEndsAt: row.termMonths === null ? null : dayjs(row.createdAt).add(row.termMonths, 'month').toISOString(),
    isRevocable: row.isRevocable,
    inactivityMonths: row.inactivityMonths,
    beneficiaries: row.beneficiaries.map((item) => ({
      name: item.name,
      email: item.email,
      sharePct: shareBpsToPct(item.shareBps),
    })),
    holding: btc(holdingMinor),
    feesPaid: btc(row.feesPaidMinor),
    claimAt: row.claimAt?.toISOString() ?? null,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The inactivity deadline of a settlor who last signed in at `lastSignInAt`: that instant plus
 * `inactivityMonths` calendar months (dayjs month arithmetic: 31 Jan + 1 month = 28/29 Feb).
 */
export function inactivityDeadline(lastSignInAt: Date, inactivityMonths: number): Date {
  return dayjs(lastSignInAt).add(inactivityMonths, 'month').toDate();
}

/** Days before the inactivity deadline on which the switch reminds the settlor (`dueInactivityStage`). */
export const INACTIVITY_REMINDER_DAYS = [30, 14, 3] as const;

/** One active trust's inactivity dates (`TrustService.inactivityDatesOf`). */
export interface TrustInactivityDates {
  trustId: number;
  name: string;
  /** Last sign-in + the trust's inactivity period: the switch moves the trust to claim then. */
  deadlineAt: Date;
  /** When each reminder is due (the deadline minus `daysBefore` days). */
  reminders: { daysBefore: (typeof INACTIVITY_REMINDER_DAYS)[number]; at: Date }[];
}

/**
 * Which stage of the inactivity switch is due at `now` for `deadline`: 0 (the deadline passed: claim),
 * the nearest reminder whose day has come (30, 14 or 3 days before), or null (nothing yet). A run
 * that missed days sends only the nearest stage, never the earlier ones late.
 */
export function dueInactivityStage(deadline: Date, now: Date): 0 | 30 | 14 | 3 | null {
  const msLeft = deadline.getTime() - now.getTime();
  if (msLeft <= 0) return 0;
  for (const days of [3, 14, 30] as const) if (msLeft <= days * DAY_MS) return days;
  return null;
}

/**
 * BTC trusts (trust, "Trust entrustment fee 2% one-time"). Business rules and
 * transactions; no HTTP objects. Every balance change is one ledger entry (docs/trust.md):
 * entrust = wallet → trust holding (net) + PLATFORM_FEES (fee); withdraw = trust holding → wallet;
 * release = trust holding → TRUST_PAYOUTS.
 */
export class TrustService {
  constructor(private readonly deps: TrustServiceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** Every trust's settlor: trust id (as the ledger's owner id) → user id (proof of liabilities). */
  async settlorsByTrustId(db: DbOrTx = this.db): Promise<Map<string, string>> {
    const rows = await db.select({ id: trusts.id, userId: trusts.userId }).from(trusts);
    return new Map(rows.map((row) => [String(row.id), row.userId]));
  }

  // ------------------------------------------------------------------ settlor

  /**
   * `POST trust/create`: a new active trust of `userId`. Shares arrive checked (sum 100 %) and are
   * stored in basis points.
   * @throws DomainError TRUST_LIMIT_REACHED (183) at `TRUSTS_PER_USER_MAX` trusts that are not closed.
   */
  async create(userId: string, body: ParsedCreateTrustBody): Promise<Trust> {
    const [held] = await this.db
      .select({ n: count() })
      .from(trusts)
      .where(and(eq(trusts.userId, userId), ne(trusts.state, 'closed')));
    if ((held?.n ?? 0) >= TRUSTS_PER_USER_MAX)
      throw new DomainError('TRUST_LIMIT_REACHED', { max: TRUSTS_PER_USER_MAX });
    const beneficiaries: StoredBeneficiary[] = body.beneficiaries.map((item) => ({
      name: item.name,
      email: item.email.trim().toLowerCase(),
      shareBps: sharePctToBps(item.sharePct),
    }));
    const [row] = await this.db
      .insert(trusts)
      .values({
        userId,
        name: body.name,
        termMonths: body.termMonths,
        isRevocable: body.isRevocable,
        inactivityMonths: body.inactivityMonths,
        beneficiaries,
      })
      .returning();
    return toTrust(row!, 0n);
  }

  /** `GET trust/list`: the settlor's trusts, newest first, each with its holding (≤ a few dozen rows). */
  async list(userId: string): Promise<Trust[]> {
    const rows = await this.db.select().from(trusts).where(eq(trusts.userId, userId)).orderBy(desc(trusts.id));
    return Promise.all(rows.map(async (row) => toTrust(row, await this.holdingOf(this.db, row.id))));
  }

  /**
   * The inactivity dates of the settlor's active trusts, for the calendar
   * (docs/calendar.md): the deadline (last sign-in + `inactivityMonths`, `inactivityDeadline`) and
   * the instants of the reminders the switch sends (`INACTIVITY_REMINDER_DAYS` days before it). A
   * sign-in moves them all, so they are computed when asked. Empty when the user has no active trust.
   */
  async inactivityDatesOf(userId: string): Promise<TrustInactivityDates[]> {
    const rows = await this.db
      .select({ id: trusts.id, name: trusts.name, inactivityMonths: trusts.inactivityMonths })
      .from(trusts)
      .where(and(eq(trusts.userId, userId), eq(trusts.state, 'active')))
      .orderBy(desc(trusts.id));
    if (rows.length === 0) return [];
    const lastSignInAt = (await this.deps.identity.lastSignInAtOf([userId])).get(userId);
    if (!lastSignInAt) return [];
    return rows.map((row) => {
      const deadlineAt = inactivityDeadline(lastSignInAt, row.inactivityMonths);
      return {
        trustId: row.id,
        name: row.name,
        deadlineAt,
        reminders: INACTIVITY_REMINDER_DAYS.map((daysBefore) => ({
          daysBefore,
          at: new Date(deadlineAt.getTime() - daysBefore * DAY_MS),
        })),
      };
    });
  }

  /**
   * `GET trust/:id`: one of the settlor's trusts with a page of its history, newest first.
   * @throws DomainError NOT_FOUND for an unknown id or another user's trust.
   */
  async detail(userId: string, trustId: number, page: { pageID: number; pageSize: number }): Promise<TrustDetail> {
    const row = await this.ownTrust(this.db, userId, trustId);
    const [total] = await this.db
      .select({ n: count() })
      .from(trustMovements)
      .where(eq(trustMovements.trustId, trustId));
    const movements = await this.db
      .select()
      .from(trustMovements)
      .where(eq(trustMovements.trustId, trustId))
      .orderBy(desc(trustMovements.id))
      .limit(page.pageSize)
      .offset((page.pageID - 1) * page.pageSize);
    const totalCount = total?.n ?? 0;
    return {
      ...toTrust(row, await this.holdingOf(this.db, trustId)),
      history: {
        list: movements.map(toMovement),
        pageID: page.pageID,
        pageSize: page.pageSize,
        totalPage: totalPages(totalCount, page.pageSize),
        totalCount,
      },
    };
  }

  /**
   * `POST trust/:id/fund`: entrust `amountMinor` satoshi of the wallet's BTC. The fee is 2 % of the
   * amount rounded UP to the satoshi (`trustEntrustment`), credited to PLATFORM_FEES; the net goes to
   * the trust's holding — one journal entry (kind TRUST_ENTRUST) in one transaction with the history
   * row. `idempotencyKey` is stored on the movement; replays and a key reused with another amount
   * are answered by the route layer's one store (docs/api.md "Idempotency").
   * @throws FieldError `amount` (below 0.0001 BTC: `AMOUNT_BELOW_MIN` is answered as a field), `Idempotency-Key` (missing)
   * @throws DomainError NOT_FOUND, TRUST_NOT_ACTIVE (181), INSUFFICIENT_BALANCE (130), CONFLICT (121), ACCOUNT_FROZEN (152), CAPTCHA_FAILED (119)
   */
  async fund(
    userId: string,
    trustId: number,
    amountMinor: bigint,
    idempotencyKey: string | undefined,
    factors: FactorCheck = NO_FACTORS,
    settleAnswer?: SettleAnswer,
  ): Promise<TrustMovement> {
    if (amountMinor < TRUST_FUND_MIN_MINOR)
      throw new DomainError('AMOUNT_BELOW_MIN', { amount: btc(TRUST_FUND_MIN_MINOR), unit: TRUST_ASSET });
    const { feeMinor, netMinor } = trustEntrustment(amountMinor);
    return this.move(
      userId,
      trustId,
      'entrust',
      { amountMinor, feeMinor, netMinor },
      idempotencyKey,
      factors,
      settleAnswer,
    );
  }

  /**
   * `POST trust/:id/withdraw`: return `amountMinor` satoshi of a revocable trust's holding to the
   * settlor's wallet. No fee on withdrawal (the 2 % is charged once, on entrusting). One entry (kind
   * TRUST_WITHDRAW); replays as `fund`.
   * @throws DomainError NOT_FOUND, TRUST_IRREVOCABLE (180), TRUST_NOT_ACTIVE (181), INSUFFICIENT_BALANCE (130: more than the trust holds), CONFLICT, ACCOUNT_FROZEN, CAPTCHA_FAILED
   */
  async withdraw(
    userId: string,
    trustId: number,
    amountMinor: bigint,
    idempotencyKey: string | undefined,
    factors: FactorCheck = NO_FACTORS,
    settleAnswer?: SettleAnswer,
  ): Promise<TrustMovement> {
    return this.move(
      userId,
      trustId,
      'withdraw',
      { amountMinor, feeMinor: 0n, netMinor: amountMinor },
      idempotencyKey,
      factors,
      settleAnswer,
    );
  }

  /**
   * The shared path of fund and withdraw: every refusal that
   * is not about the code, then the factors, then one transaction: the trust row locked, its state
   * checked again, the entry posted (the ledger refuses a balance going below zero), the history row,
   * the one-time codes used up, and the answer stored by `settleAnswer` (the idempotency store's:
   * docs/api.md "Idempotency").
   */
  private async move(
    userId: string,
    trustId: number,
    kind: 'entrust' | 'withdraw',
    amounts: { amountMinor: bigint; feeMinor: bigint; netMinor: bigint },
    idempotencyKey: string | undefined,
    factors: FactorCheck,
    settleAnswer: SettleAnswer | undefined,
  ): Promise<TrustMovement> {
    if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
    const trust = await this.ownTrust(this.db, userId, trustId);
    this.assertMovable(trust, kind);
    await this.deps.identity.assertNotFrozen(userId);
    const source =
      kind === 'entrust' ? userAccount(userId, 'USER_AVAILABLE', TRUST_ASSET) : trustAccount(trustId, TRUST_ASSET);
    // Checked again by the ledger inside the transaction; here so the refusal uses up no code.
    if ((await accountBalance(this.db, source)) < amounts.amountMinor) throw new DomainError('INSUFFICIENT_BALANCE');
    await factors.check();
    const row = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(trusts).where(eq(trusts.id, trustId)).for('update');
      this.assertMovable(locked!, kind);
      await this.deps.identity.assertNotFrozen(userId, tx);
      const { entry } = await postEntry(tx, {
        kind: kind === 'entrust' ? 'TRUST_ENTRUST' : 'TRUST_WITHDRAW',
        reference: `trust:${trustId}`,
        idempotencyKey: `trust:${trustId}:${kind}:${idempotencyKey}`,
        postings:
          kind === 'entrust'
            ? [
                { account: source, amountMinor: -amounts.amountMinor },
                { account: trustAccount(trustId, TRUST_ASSET), amountMinor: amounts.netMinor },
                { account: platformAccount('PLATFORM_FEES', TRUST_ASSET), amountMinor: amounts.feeMinor },
              ]
            : transfer(source, userAccount(userId, 'USER_AVAILABLE', TRUST_ASSET), amounts.amountMinor),
      });
      const [created] = await tx
        .insert(trustMovements)
        .values({ trustId, kind, ...amounts, entryId: entry.id, idempotencyKey, requestHash: REQUEST_HASH_IN_STORE })
        .returning();
      if (amounts.feeMinor > 0n)
        await tx
          .update(trusts)
          .set({
            feesPaidMinor: sql`${trusts.feesPaidMinor} + ${amounts.feeMinor.toString()}::numeric`,
            updatedAt: this.deps.now(),
          })
          .where(eq(trusts.id, trustId));
      const [net, fee] = [btc(amounts.netMinor), btc(amounts.feeMinor)];
      const message = { userId, trustId, trustName: locked!.name, kind, asset: TRUST_ASSET, net, fee };
      await this.deps.notifyMany([trustMovementMessage({ ...message, amount: btc(amounts.amountMinor) })], tx);
      await factors.consume(tx);
      await settleAnswer?.(tx, toMovement(created!));
      return created!;
    });
    return toMovement(row);
  }

  private assertMovable(trust: TrustRow, kind: 'entrust' | 'withdraw'): void {
    if (trust.state !== 'active') throw new DomainError('TRUST_NOT_ACTIVE');
    if (kind === 'withdraw' && !trust.isRevocable) throw new DomainError('TRUST_IRREVOCABLE');
  }

  private async ownTrust(db: DbOrTx, userId: string, trustId: number): Promise<TrustRow> {
    const [row] = await db
      .select()
      .from(trusts)
      .where(and(eq(trusts.id, trustId), eq(trusts.userId, userId)));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  /**
   * What the settlor's trusts hold, per asset in minor units (BTC only today), for the account
   * overview. Closed trusts hold nothing (a release moves the whole holding), so only the open ones
   * are read: at most `TRUSTS_PER_USER_MAX` balances.
   */
  async heldMinorByAsset(userId: string): Promise<Map<AssetCode, bigint>> {
    const rows = await this.db
      .select({ id: trusts.id })
      .from(trusts)
      .where(and(eq(trusts.userId, userId), ne(trusts.state, 'closed')));
    const held = await Promise.all(rows.map((row) => this.holdingOf(this.db, row.id)));
    const totalMinor = held.reduce((total, minor) => total + minor, 0n);
    return totalMinor === 0n ? new Map() : new Map([[TRUST_ASSET, totalMinor]]);
  }

  private holdingOf(db: DbOrTx, trustId: number): Promise<bigint> {
    return accountBalance(db, trustAccount(trustId, TRUST_ASSET));
  }

  /**
   * Account closure is refused while a trust holds BTC or waits in claim (the settlor's trusts are
   * theirs until released). Reasons in `locale`.
   */
  readonly holdingsChecker: HoldingsChecker = {
    reasonsToRefuseClosure: async (userId, locale) => {
      const rows = await this.db
        .select()
        .from(trusts)
        .where(and(eq(trusts.userId, userId), ne(trusts.state, 'closed')));
      const reasons: string[] = [];
      for (const row of rows) {
        const holdingMinor = await this.holdingOf(this.db, row.id);
        if (holdingMinor === 0n && row.state === 'active') continue;
        reasons.push(
          locale === 'zh-HK'
            ? `信託「${row.name}」（${formatMoney(holdingMinor, TRUST_ASSET, { locale })}）`
            : `trust "${row.name}" (${formatMoney(holdingMinor, TRUST_ASSET, { locale })})`,
        );
      }
      return reasons;
    },
  };

  // ------------------------------------------------------------------ inactivity switch

  /**
   * The daily inactivity switch, run by the scheduler's leader in its transaction `tx`.
   * Active trusts are walked by id in batches of `INACTIVITY_BATCH_ROWS` (at most
   * `INACTIVITY_BATCHES_MAX` batches a run); per batch: one query for the settlors' last sign-ins,
   * the due stage of each trust (`dueInactivityStage`), ONE insert of the due stages into
   * `trust_inactivity_notices` (ON CONFLICT DO NOTHING: each (trust, stage, deadline) is sent once,
   * whatever reruns), then for what was newly claimed: the settlor's reminder (message + email in
   * their language), or at the deadline one update moving the trusts to `claim` and an email to each
   * beneficiary (both languages: they are not users). No money moves: an operator releases.
   * @returns how many reminders were sent and trusts moved to claim.
   */
  async runInactivity(
    now: Date = this.deps.now(),
    tx: DbOrTx = this.db,
  ): Promise<{ reminded: number; claimed: number }> {
    let afterId = 0;
    let reminded = 0;
    let claimed = 0;
    for (let batch = 0; batch < INACTIVITY_BATCHES_MAX; batch += 1) {
      const rows = await tx
        .select()
        .from(trusts)
        .where(and(eq(trusts.state, 'active'), gt(trusts.id, afterId)))
        .orderBy(asc(trusts.id))
        .limit(INACTIVITY_BATCH_ROWS);
      if (rows.length === 0) break;
      afterId = rows.at(-1)!.id;
      const settlorIds = [...new Set(rows.map((row) => row.userId))];
      const lastSignIns = await this.deps.identity.lastSignInAtOf(settlorIds, tx);
      const due = rows.flatMap((row) => {
        const lastSignInAt = lastSignIns.get(row.userId);
        if (!lastSignInAt) return [];
        const deadlineAt = inactivityDeadline(lastSignInAt, row.inactivityMonths);
        const daysBefore = dueInactivityStage(deadlineAt, now);
        return daysBefore === null ? [] : [{ row, daysBefore, deadlineAt, lastSignInAt }];
      });
      if (due.length === 0) continue;
      const inserted = await tx
        .insert(trustInactivityNotices)
        .values(
          due.map((item) => ({
            trustId: item.row.id,
            daysBefore: item.daysBefore,
            deadlineAt: item.deadlineAt,
            sentAt: now,
          })),
        )
        .onConflictDoNothing()
        .returning({ trustId: trustInactivityNotices.trustId, daysBefore: trustInactivityNotices.daysBefore });
      const isNew = new Set(inserted.map((item) => `${item.trustId}:${item.daysBefore}`));
      const fresh = due.filter((item) => isNew.has(`${item.row.id}:${item.daysBefore}`));
      if (fresh.length === 0) continue;
      const recipients = await this.deps.identity.recipientsOf([...new Set(fresh.map((item) => item.row.userId))], tx);
      const toClaim = fresh.filter((item) => item.daysBefore === 0).map((item) => item.row.id);
      if (toClaim.length > 0)
        await tx
          .update(trusts)
          .set({ state: 'claim', claimAt: now, updatedAt: now })
          .where(and(inArray(trusts.id, toClaim), eq(trusts.state, 'active')));
      const messages: NotifyInput[] = [];
      for (const item of fresh) {
        const recipient = recipients.get(item.row.userId);
        const text = trustInactivityMessages({
          trustId: item.row.id,
          trustName: item.row.name,
          daysBefore: item.daysBefore,
          deadlineAt: item.deadlineAt,
          lastSignInAt: item.lastSignInAt,
        });
        messages.push({ userId: item.row.userId, category: 'ACCOUNT', ...text.message });
        const locale = recipient?.locale ?? 'en-US';
        if (recipient?.email)
          await this.deps.enqueueMail(
            {
              to: recipient.email,
              subject: text.mail.subject[locale],
              text: text.mail.text[locale],
              tag: 'TRUST_INACTIVITY',
            },
            tx,
          );
        if (item.daysBefore === 0) {
          claimed += 1;
          for (const beneficiary of item.row.beneficiaries)
            await this.deps.enqueueMail(
              {
                to: beneficiary.email,
                ...text.beneficiaryMail(beneficiary.name, shareBpsToPct(beneficiary.shareBps)),
                tag: 'TRUST_CLAIM',
              },
              tx,
            );
        } else reminded += 1;
      }
      await this.deps.notifyMany(messages, tx);
      this.deps.log?.info({ batch, afterId, reminded, claimed }, 'trust inactivity batch');
    }
    return { reminded, claimed };
  }

  // ------------------------------------------------------------------ operators

  /** `GET admin/trusts`: trusts in `state` (default claim), oldest claim first, with the settlor's email and last sign-in. */
  async listForOperators(query: { state: TrustState; pageID: number; pageSize: number }): Promise<Page<OpsTrust>> {
    const [total] = await this.db.select({ n: count() }).from(trusts).where(eq(trusts.state, query.state));
    const rows = await this.db
      .select()
      .from(trusts)
      .where(eq(trusts.state, query.state))
      .orderBy(asc(trusts.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const userIds = [...new Set(rows.map((row) => row.userId))];
    const [recipients, lastSignIns] = await Promise.all([
      this.deps.identity.recipientsOf(userIds),
      this.deps.identity.lastSignInAtOf(userIds),
    ]);
    const list = await Promise.all(
      rows.map(async (row) =>
        this.toOpsTrust(row, recipients.get(row.userId)?.email ?? null, lastSignIns.get(row.userId) ?? null),
      ),
    );
    const totalCount = total?.n ?? 0;
    return {
      list,
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalPage: totalPages(totalCount, query.pageSize),
      totalCount,
    };
  }

  /**
   * `POST admin/trusts/:id/release`: a finance operator, having verified the beneficiaries, releases
   * a trust in claim. In one transaction: the trust row locked and moved claim → closed (with the
   * operator, the payout reference and the verification note), and — when it holds BTC — one entry
   * (TRUST_RELEASE, key `trust:<id>:release`, so at most once) moving the whole holding to
   * TRUST_PAYOUTS, from which the operator pays the beneficiaries off the platform. No automatic payout.
   * @throws DomainError NOT_FOUND, TRUST_STATE_CHANGED (182) when the trust is not in claim.
   */
  async release(
    trustId: number,
    operatorEmail: string,
    body: { reference: string; verificationNote: string },
  ): Promise<OpsTrust> {
    const row = await this.db.transaction(async (tx: Tx) => {
      const [locked] = await tx.select().from(trusts).where(eq(trusts.id, trustId)).for('update');
      if (!locked) throw new DomainError('NOT_FOUND');
      if (locked.state !== 'claim') throw new DomainError('TRUST_STATE_CHANGED');
      const holdingMinor = await this.holdingOf(tx, trustId);
      if (holdingMinor > 0n) {
        const { entry } = await postEntry(tx, {
          kind: 'TRUST_RELEASE',
          reference: `trust:${trustId}`,
          idempotencyKey: `trust:${trustId}:release`,
          postings: transfer(
            trustAccount(trustId, TRUST_ASSET),
            platformAccount('TRUST_PAYOUTS', TRUST_ASSET),
            holdingMinor,
          ),
          metadata: { payoutReference: body.reference },
        });
        await tx.insert(trustMovements).values({
          trustId,
          kind: 'release',
          amountMinor: holdingMinor,
          feeMinor: 0n,
          netMinor: holdingMinor,
          entryId: entry.id,
          idempotencyKey: 'release',
          requestHash: REQUEST_HASH_IN_STORE,
        });
      }
      const now = this.deps.now();
      const [updated] = await tx
        .update(trusts)
        .set({
          state: 'closed',
          releasedAt: now,
          releasedBy: operatorEmail,
          releaseReference: body.reference,
          releaseNote: body.verificationNote,
          updatedAt: now,
        })
        .where(and(eq(trusts.id, trustId), eq(trusts.state, 'claim')))
        .returning();
      return updated!;
    });
    const recipients = await this.deps.identity.recipientsOf([row.userId]);
    const lastSignIns = await this.deps.identity.lastSignInAtOf([row.userId]);
    return this.toOpsTrust(row, recipients.get(row.userId)?.email ?? null, lastSignIns.get(row.userId) ?? null);
  }

  private async toOpsTrust(row: TrustRow, userEmail: string | null, lastSignInAt: Date | null): Promise<OpsTrust> {
    return {
      ...toTrust(row, await this.holdingOf(this.db, row.id)),
      userId: row.userId,
      userEmail,
      lastSignInAt: lastSignInAt?.toISOString() ?? null,
      releaseReference: row.releaseReference,
      releasedBy: row.releasedBy,
    };
  }
}
