import { type AssetCode } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import { totalPages } from '@meridian/contracts/pagination';
import {
  type ParsedCreateTrustBody,
  sharePctToBps,
  TRUST_ASSET,
  TRUST_FUND_MIN_MINOR,
  type Trust,
  type TrustDetail,
  type TrustMovement,
  TRUSTS_PER_USER_MAX,
  trustEntrustment,
} from '@meridian/contracts/trust';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { HoldingsChecker } from '../../platform/app-module.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, trustAccount, userAccount } from '../ledger/ledger.types.ts';
import { trustMovementMessage } from './trust.messages.ts';
import { type StoredBeneficiary, trustMovements, trusts } from './trust.tables.ts';
import {
  type FactorCheck,
  holdingOf,
  NO_FACTORS,
  ownTrust,
  toMovement,
  toTrust,
  type TrustRow,
  type TrustServiceDeps,
  btc,
} from './trust.internal.ts';

/** The settlor's trusts: create, list, detail, fund and withdraw, what they hold, and closure's check. */
export function createTrustAccounts(deps: TrustServiceDeps) {
  const { db } = deps;

  /**
   * The shared path of fund and withdraw: every refusal that
   * is not about the code, then the factors, then one transaction: the trust row locked, its state
   * checked again, the entry posted (the ledger refuses a balance going below zero), the history row,
   * the one-time codes used up, and the answer stored by `settleAnswer` (the idempotency store's:
   * docs/api.md "Idempotency").
   */
  async function move(
    userId: string,
    trustId: number,
    kind: 'entrust' | 'withdraw',
    amounts: { amountMinor: bigint; feeMinor: bigint; netMinor: bigint },
    idempotencyKey: string | undefined,
    factors: FactorCheck,
    settleAnswer: SettleAnswer | undefined,
  ): Promise<TrustMovement> {
    if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
    const trust = await ownTrust(db, userId, trustId);
    assertMovable(trust, kind);
    await deps.identity.assertNotFrozen(userId);
    const source =
      kind === 'entrust' ? userAccount(userId, 'USER_AVAILABLE', TRUST_ASSET) : trustAccount(trustId, TRUST_ASSET);
    // Checked again by the ledger inside the transaction; here so the refusal uses up no code.
    if ((await accountBalance(db, source)) < amounts.amountMinor) throw new DomainError('INSUFFICIENT_BALANCE');
    await factors.check();
    const row = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(trusts).where(eq(trusts.id, trustId)).for('update');
      assertMovable(locked!, kind);
      await deps.identity.assertNotFrozen(userId, tx);
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
            updatedAt: deps.now(),
          })
          .where(eq(trusts.id, trustId));
      const [net, fee] = [btc(amounts.netMinor), btc(amounts.feeMinor)];
      const message = { userId, trustId, trustName: locked!.name, kind, asset: TRUST_ASSET, net, fee };
      await deps.notifyMany([trustMovementMessage({ ...message, amount: btc(amounts.amountMinor) })], tx);
      await factors.consume(tx);
      await settleAnswer?.(tx, toMovement(created!));
      return created!;
    });
    return toMovement(row);
  }

  function assertMovable(trust: TrustRow, kind: 'entrust' | 'withdraw'): void {
    if (trust.state !== 'active') throw new DomainError('TRUST_NOT_ACTIVE');
    if (kind === 'withdraw' && !trust.isRevocable) throw new DomainError('TRUST_IRREVOCABLE');
  }

  return {
    /** Every trust's settlor: trust id (as the ledger's owner id) → user id (proof of liabilities). */
    async settlorsByTrustId(db: DbOrTx = deps.db): Promise<Map<string, string>> {
      const rows = await db.select({ id: trusts.id, userId: trusts.userId }).from(trusts);
      return new Map(rows.map((row) => [String(row.id), row.userId]));
    },

    /**
     * `POST trust/create`: a new active trust of `userId`. Shares arrive checked (sum 100 %) and are
     * stored in basis points.
     * @throws DomainError TRUST_LIMIT_REACHED (183) at `TRUSTS_PER_USER_MAX` trusts that are not closed.
     */
    async create(userId: string, body: ParsedCreateTrustBody): Promise<Trust> {
      const [held] = await db
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
      const [row] = await db
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
    },

    /** `GET trust/list`: the settlor's trusts, newest first, each with its holding (≤ a few dozen rows). */
    async list(userId: string): Promise<Trust[]> {
      const rows = await db.select().from(trusts).where(eq(trusts.userId, userId)).orderBy(desc(trusts.id));
      return Promise.all(rows.map(async (row) => toTrust(row, await holdingOf(db, row.id))));
    },

    /**
     * `GET trust/:id`: one of the settlor's trusts with a page of its history, newest first.
     * @throws DomainError NOT_FOUND for an unknown id or another user's trust.
     */
    async detail(userId: string, trustId: number, page: { pageID: number; pageSize: number }): Promise<TrustDetail> {
      const row = await ownTrust(db, userId, trustId);
      const [total] = await db.select({ n: count() }).from(trustMovements).where(eq(trustMovements.trustId, trustId));
      const movements = await db
        .select()
        .from(trustMovements)
        .where(eq(trustMovements.trustId, trustId))
        .orderBy(desc(trustMovements.id))
        .limit(page.pageSize)
        .offset((page.pageID - 1) * page.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        ...toTrust(row, await holdingOf(db, trustId)),
        history: {
          list: movements.map(toMovement),
          pageID: page.pageID,
          pageSize: page.pageSize,
          totalPage: totalPages(totalCount, page.pageSize),
          totalCount,
        },
      };
    },

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
      return move(
        userId,
        trustId,
        'entrust',
        { amountMinor, feeMinor, netMinor },
        idempotencyKey,
        factors,
        settleAnswer,
      );
    },

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
      return move(
        userId,
        trustId,
        'withdraw',
        { amountMinor, feeMinor: 0n, netMinor: amountMinor },
        idempotencyKey,
        factors,
        settleAnswer,
      );
    },

    /**
     * What the settlor's trusts hold, per asset in minor units (BTC only today), for the account
     * overview. Closed trusts hold nothing (a release moves the whole holding), so only the open ones
     * are read: at most `TRUSTS_PER_USER_MAX` balances.
     */
    async heldMinorByAsset(userId: string): Promise<Map<AssetCode, bigint>> {
      const rows = await db
        .select({ id: trusts.id })
        .from(trusts)
        .where(and(eq(trusts.userId, userId), ne(trusts.state, 'closed')));
      const held = await Promise.all(rows.map((row) => holdingOf(db, row.id)));
      const totalMinor = held.reduce((total, minor) => total + minor, 0n);
      return totalMinor === 0n ? new Map() : new Map([[TRUST_ASSET, totalMinor]]);
    },

    /**
     * Account closure is refused while a trust holds BTC or waits in claim (the settlor's trusts are
     * theirs until released). Reasons in `locale`.
     */
    holdingsChecker: {
      reasonsToRefuseClosure: async (userId, locale) => {
        const rows = await db
          .select()
          .from(trusts)
          .where(and(eq(trusts.userId, userId), ne(trusts.state, 'closed')));
        const reasons: string[] = [];
        for (const row of rows) {
          const holdingMinor = await holdingOf(db, row.id);
          if (holdingMinor === 0n && row.state === 'active') continue;
          reasons.push(
            locale === 'zh-HK'
              ? `信託「${row.name}」（${formatMoney(holdingMinor, TRUST_ASSET, { locale })}）`
              : `trust "${row.name}" (${formatMoney(holdingMinor, TRUST_ASSET, { locale })})`,
          );
        }
        return reasons;
      },
    } satisfies HoldingsChecker,
  };
}
