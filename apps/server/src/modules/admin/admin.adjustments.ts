import type { Adjustment } from '@meridian/contracts/back-office';
import type { LocalizedText } from '@meridian/contracts/locale';
import {
  AmountParseError,
  type AssetCode,
  ASSET_PRECISION,
  isAssetCode,
  parseAmountMinor,
  toDecimalString,
} from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import type { NoticeCategory } from '@meridian/contracts/notices';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { type AccountRef, type PlatformAccountType, platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { manualAdjustments, type StoredAdjustmentPosting } from './admin.adjustments.tables.ts';

/** The back-office codes of the platform accounts an adjustment may touch, and their ledger account types. */
export const ADJUSTMENT_PLATFORM_ACCOUNTS = {
  adjustments: 'PLATFORM_ADJUSTMENTS',
  suspense: 'SUSPENSE',
  fees: 'PLATFORM_FEES',
} as const satisfies Record<'adjustments' | 'suspense' | 'fees', PlatformAccountType>;

/** One posting of a proposal as the contract's body carries it (`adjustmentPostingSchema`). */
export interface AdjustmentPostingInput {
  account: { kind: 'user'; userId: string } | { kind: 'platform'; code: keyof typeof ADJUSTMENT_PLATFORM_ACCOUNTS };
  asset: AssetCode;
  /** Signed decimal string of `asset` ("-1.5"): positive credits the account, negative debits it. */
  amount: string;
}

/** Who acts: the signed-in operator (`currentOperator(request)`); the id is what four eyes compares. */
export interface ActingOperator {
  id: number;
  email: string;
}

/** What the adjustments need from the identity module (its service satisfies this). */
export interface AdjustmentIdentity {
  /** The active users among `userIds` (at most 500), as a map keyed by id; others are absent. */
  recipientsOf(userIds: readonly string[], db?: DbOrTx): Promise<Map<string, unknown>>;
}

/** What the adjustments need from the notices module (its service satisfies this). */
export interface AdjustmentNotifier {
  notify(input: {
    userId: string;
    category: NoticeCategory;
    title: LocalizedText;
    body: LocalizedText;
    params?: Record<string, string | number>;
    link?: string;
  }): Promise<unknown>;
}

/** A user id is a UUID (the users table's key); anything else cannot name a user. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type AdjustmentRow = typeof manualAdjustments.$inferSelect;

/**
 * Read a posting's signed wire amount ("-1.50") as minor units of `asset`.
 * @throws FieldError on `postings.<index>.amount`: `validation.amount` (malformed or out of range),
 *   `validation.amountPrecision` with `{ decimals }` (more decimals than the asset has),
 *   `validation.amountNonZero` (zero).
 */
export function parseSignedAmountMinor(text: string, asset: AssetCode, index: number): bigint {
  const field = `postings.${index}.amount`;
  const isNegative = text.startsWith('-');
  let magnitude: bigint;
  try {
    magnitude = parseAmountMinor(isNegative ? text.slice(1) : text, asset);
  } catch (error) {
    if (!(error instanceof AmountParseError)) throw error;
    if (error.reason === 'precision')
      throw new FieldError(field, 'validation.amountPrecision', { decimals: ASSET_PRECISION[asset] });
    throw new FieldError(field, 'validation.amount');
  }
  if (magnitude === 0n) throw new FieldError(field, 'validation.amountNonZero');
  return isNegative ? -magnitude : magnitude;
}

/**
 * Manual adjustments with four eyes: a balanced journal entry proposed by one
 * finance operator with a reason, approved by a different one and then posted through the ledger
 * (entry kind `ADJUSTMENT`, idempotency key `adjustment:<id>`), or rejected with a reason. Each
 * user whose balance changed gets a message (both languages). The routes note the before/after of
 * each decision for the audit log (`admin.adjustments.routes.ts`).
 *
 * User postings move the user's available balance (`USER_AVAILABLE`); platform postings one of
 * `ADJUSTMENT_PLATFORM_ACCOUNTS`. Only the ledger moves money: this class calls `postEntry`.
 */
export class ManualAdjustments {
  constructor(
    private readonly db: Db,
    private readonly identity: AdjustmentIdentity,
    private readonly notifier: AdjustmentNotifier,
    private readonly log: { warn(detail: object, message: string): void },
    /** The app's clock. */
    private readonly now: () => Date,
  ) {}

  /** Proposed adjustments waiting for a second operator: how many, and the oldest proposal (dashboard). */
  async queueSize(): Promise<{ size: number; oldestAt: Date | null }> {
    const [row] = await this.db
      .select({
        size: sql<number>`count(*)::int`,
        oldestAt: sql<Date | string | null>`min(${manualAdjustments.proposedAt})`,
      })
      .from(manualAdjustments)
      .where(eq(manualAdjustments.status, 'proposed'));
    return { size: row?.size ?? 0, oldestAt: row?.oldestAt ? new Date(row.oldestAt) : null };
  }

  /** Adjustments, newest first, optionally of one status, one page. */
  async list(query: { pageID: number; pageSize: number; status?: Adjustment['status'] }): Promise<Page<Adjustment>> {
    const where = query.status === undefined ? undefined : eq(manualAdjustments.status, query.status);
    const [total] = await this.db.select({ n: count() }).from(manualAdjustments).where(where);
    const rows = await this.db
      .select()
      .from(manualAdjustments)
      .where(where)
      .orderBy(desc(manualAdjustments.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map(toAdjustment),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * Propose an adjustment (status 'proposed'; nothing moves until another operator approves it).
   * Each amount is read with its asset's precision; the postings must sum to zero per asset.
   * @throws FieldError (120) on `postings.<n>.amount` (malformed, too many decimals, zero) or on
   *   `postings` (`validation.postingsUnbalanced` with `{ asset, sum }`, the sum a decimal string).
   * @throws DomainError NOT_FOUND (a user posting names no active user).
   */
  async propose(
    operator: ActingOperator,
    body: { reason: string; postings: AdjustmentPostingInput[] },
  ): Promise<Adjustment> {
    const parsed = body.postings.map((posting, index) => ({
      posting,
      amountMinor: parseSignedAmountMinor(posting.amount, posting.asset, index),
    }));
    const sums = new Map<AssetCode, bigint>();
    for (const { posting, amountMinor } of parsed)
      sums.set(posting.asset, (sums.get(posting.asset) ?? 0n) + amountMinor);
    for (const [asset, sum] of sums) {
      if (sum !== 0n)
        throw new FieldError('postings', 'validation.postingsUnbalanced', { asset, sum: toDecimalString(sum, asset) });
    }
    const userIds = [
      ...new Set(
        parsed.flatMap(({ posting }) =>
          posting.account.kind === 'user' ? [posting.account.userId.toLowerCase()] : [],
        ),
      ),
    ];
    if (userIds.some((userId) => !UUID_PATTERN.test(userId))) throw new DomainError('NOT_FOUND');
    const known = await this.identity.recipientsOf(userIds);
    if (userIds.some((userId) => !known.has(userId))) throw new DomainError('NOT_FOUND');

    const [row] = await this.db
      .insert(manualAdjustments)
      .values({
        status: 'proposed',
        reason: body.reason,
        postings: parsed.map(({ posting, amountMinor }) => ({
          account:
            posting.account.kind === 'user'
              ? { kind: 'user', userId: posting.account.userId.toLowerCase() }
              : { kind: 'platform', code: posting.account.code },
          asset: posting.asset,
          amountMinor: amountMinor.toString(),
        })),
        proposedById: operator.id,
        proposedByEmail: operator.email,
        proposedAt: this.now(),
      })
      .returning();
    return toAdjustment(row!);
  }

  /**
   * Approve and post a proposed adjustment, in one transaction: the row moves 'proposed' → 'posted'
   * with a conditional `UPDATE … WHERE status = 'proposed' AND proposed_by_id <> <approver>` (which
   * locks it, so a racing approval waits and then finds it decided), the ledger entry is posted
   * (`adjustment:<id>`: approving twice posts once) and its id is kept. Then each user whose
   * balance changed is messaged (a failed message is logged; the posting stands).
   * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) when the approver proposed it;
   *   ADJUSTMENT_STATE_CHANGED (154, content `{ status }`) when it is already decided;
   *   INSUFFICIENT_BALANCE (130) when a user account would go below zero — nothing moves and the
   *   adjustment stays proposed.
   */
  async approve(operator: ActingOperator, id: number): Promise<Adjustment> {
    const posted = await this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(manualAdjustments)
        .set({ status: 'posted', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: this.now() })
        .where(
          and(
            eq(manualAdjustments.id, id),
            eq(manualAdjustments.status, 'proposed'),
            ne(manualAdjustments.proposedById, operator.id),
          ),
        )
        .returning();
      if (!claimed) {
        const existing = await this.find(tx, id);
        if (existing.status !== 'proposed')
          throw new DomainError('ADJUSTMENT_STATE_CHANGED', {}, { status: existing.status });
        throw new DomainError('FOUR_EYES_REQUIRED');
      }
      const { entry } = await postEntry(tx, {
        kind: 'ADJUSTMENT',
        reference: `adjustment:${claimed.id}`,
        idempotencyKey: `adjustment:${claimed.id}`,
        postings: claimed.postings.map((posting) => ({
          account: accountOf(posting),
          amountMinor: BigInt(posting.amountMinor),
        })),
        metadata: { proposedBy: claimed.proposedByEmail, approvedBy: operator.email },
      });
      const [withEntry] = await tx
        .update(manualAdjustments)
        .set({ entryId: entry.id })
        .where(eq(manualAdjustments.id, claimed.id))
        .returning();
      return withEntry!;
    });
    await this.notifyUsers(posted);
    return toAdjustment(posted);
  }

  /**
   * Reject a proposed adjustment with a reason (any finance operator, its proposer included: nothing
   * moves, so four eyes is not needed to say no). Conditional on 'proposed', so it is decided once.
   * @throws DomainError NOT_FOUND; ADJUSTMENT_STATE_CHANGED (154, content `{ status }`) when already decided.
   */
  async reject(operator: ActingOperator, id: number, reason: string): Promise<Adjustment> {
    const [rejected] = await this.db
      .update(manualAdjustments)
      .set({
        status: 'rejected',
        decidedById: operator.id,
        decidedByEmail: operator.email,
        decidedAt: this.now(),
        decisionNote: reason,
      })
      .where(and(eq(manualAdjustments.id, id), eq(manualAdjustments.status, 'proposed')))
      .returning();
    if (rejected) return toAdjustment(rejected);
    const existing = await this.find(this.db, id);
    throw new DomainError('ADJUSTMENT_STATE_CHANGED', {}, { status: existing.status });
  }

  /** One adjustment. @throws DomainError NOT_FOUND. */
  async show(id: number): Promise<Adjustment> {
    return toAdjustment(await this.find(this.db, id));
  }

  private async find(db: DbOrTx, id: number): Promise<AdjustmentRow> {
    const [row] = await db.select().from(manualAdjustments).where(eq(manualAdjustments.id, id));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  /**
   * Tell each user whose available balance the posted adjustment changed, with the net change per
   * asset ("+10 USDT, −0.001 BTC"). The operators' reason stays internal.
   */
  private async notifyUsers(row: AdjustmentRow): Promise<void> {
    const changes = new Map<string, Map<AssetCode, bigint>>();
    for (const posting of row.postings) {
      if (posting.account.kind !== 'user' || !isAssetCode(posting.asset)) continue;
      const perAsset = changes.get(posting.account.userId) ?? new Map<AssetCode, bigint>();
      perAsset.set(posting.asset, (perAsset.get(posting.asset) ?? 0n) + BigInt(posting.amountMinor));
      changes.set(posting.account.userId, perAsset);
    }
    for (const [userId, perAsset] of changes) {
      const text = [...perAsset]
        .filter(([, minor]) => minor !== 0n)
        .map(
          ([asset, minor]) =>
            `${minor > 0n ? '+' : '−'}${formatMoney(minor < 0n ? -minor : minor, asset, { unit: 'code' })}`,
        )
        .join(', ');
      if (text === '') continue;
      await this.notifier
        .notify({
          userId,
          category: 'ACCOUNT',
          title: { 'en-US': 'Balance adjusted', 'zh-HK': '餘額已調整' },
          body: {
            'en-US': 'Our team adjusted your wallet balance: {changes}. Contact support if you have any questions.',
            'zh-HK': '我們的團隊已調整你的錢包餘額：{changes}。如有疑問，請聯絡客服。',
          },
          params: { changes: text },
          link: '/my/account/main',
        })
        .catch((error: unknown) =>
          this.log.warn({ err: error, adjustmentId: row.id, userId }, 'adjustment notification failed'),
        );
    }
  }
}

/** The ledger account of a stored posting: the user's available balance, or the platform account of its code. */
function accountOf(posting: StoredAdjustmentPosting): AccountRef {
  if (!isAssetCode(posting.asset)) throw new Error(`unknown asset ${posting.asset} in manual_adjustments`);
  return posting.account.kind === 'user'
    ? userAccount(posting.account.userId, 'USER_AVAILABLE', posting.asset)
    : platformAccount(ADJUSTMENT_PLATFORM_ACCOUNTS[posting.account.code], posting.asset);
}

/** The contract's view of a row (`adjustmentSchema`): amounts as signed decimal strings of their asset. */
function toAdjustment(row: AdjustmentRow): Adjustment {
  return {
    id: row.id,
    status: row.status as Adjustment['status'],
    reason: row.reason,
    postings: row.postings.map((posting) => ({
      account: posting.account,
      asset: posting.asset,
      amount: isAssetCode(posting.asset)
        ? toDecimalString(BigInt(posting.amountMinor), posting.asset)
        : posting.amountMinor,
    })),
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionNote: row.decisionNote,
    entryId: row.entryId === null ? null : String(row.entryId),
  };
}
