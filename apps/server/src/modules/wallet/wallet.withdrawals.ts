import { toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import {
  type ParsedWithdrawBody,
  type ParsedWithdrawCheckBody,
  type WalletRecord,
  WITHDRAW_STATUS,
  type WithdrawCheckContent,
} from '@meridian/contracts/wallet';
import { and, eq, lte } from 'drizzle-orm';
import { REQUEST_HASH_IN_STORE } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { transfer, userAccount } from '../ledger/ledger.types.ts';
import { chainOf } from './wallet.addresses.ts';
import { assertWithinLimits, lockUserWithdrawals, usdValueCents } from './wallet.limits.ts';
import { addressBook, deposits, withdrawals } from './wallet.tables.ts';
import type { FactorCheck, WithdrawalOptions } from './wallet.types.ts';
import {
  checkDestination,
  findKnownNetwork,
  limitUsageOf,
  NO_FACTORS,
  notifyWithdrawal,
  ownerOfAddress,
  price,
  toWithdrawRecord,
  type WalletContext,
} from './wallet.internal.ts';
import { returnEntry, transition } from './wallet.transitions.ts';

/** The user's withdrawals: the checks, the dry run, the request, and cancelling. */
export function createWithdrawalsService(ctx: WalletContext) {
  /**
   * Every check of a withdrawal, shared by `POST wallet/withdraw` and its dry run
   * `POST wallet/withdraw/check` (7, 10), in this order: network (unknown →
   * field `network`; known but switched off → 135), address (format, burn/contract destination,
   * sanctions list, own address, whitelist), amount (format, network limits), security hold,
   * available balance ≥ amount + fee, then the USD value of the amount (`usdCents`, checked against
   * the level's limits by the callers; an idempotent replay is answered by the route layer before
   * this runs, so it is never refused by its own first answer). Changes no balance or withdrawal (a sanctions hit stores an alert).
   * @throws FieldError on `network`, `address`, `amount`; DomainError ACCOUNT_FROZEN (152, checked
   *   first), WITHDRAW_UNAVAILABLE (135), SECURITY_HOLD (106), INSUFFICIENT_BALANCE (130), PRICE_UNAVAILABLE (134).
   */
  async function planWithdrawal(userId: string, body: ParsedWithdrawCheckBody, isAddressBookOnly = false) {
    await ctx.options.identity.assertNotFrozen(userId);
    const found = await findKnownNetwork(ctx, body.coin, body.network);
    const chain = chainOf(body.network);
    if (!found.coin.isEnabled || !found.net.isWithdrawEnabled || !chain) throw new DomainError('WITHDRAW_UNAVAILABLE');
    const asset = body.coin;
    const address = await checkDestination(ctx, body.network, body.address, userId, 'withdrawal');
    const { amountMinor } = body;
    if (amountMinor < found.net.withdrawMinMinor)
      throw new FieldError('amount', 'validation.withdrawMin', {
        limit: formatMoney(found.net.withdrawMinMinor, asset, { unit: 'none', rounding: 'up' }),
        unit: asset,
      });
    if (amountMinor > found.net.withdrawMaxMinor)
      throw new FieldError('amount', 'validation.withdrawMax', {
        limit: formatMoney(found.net.withdrawMaxMinor, asset, { unit: 'none', rounding: 'down' }),
        unit: asset,
      });
    const holdUntil = await ctx.options.identity.withdrawalHoldUntil(userId);
    if (holdUntil)
      throw new DomainError(
        'SECURITY_HOLD',
        { until: `${holdUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC` },
        { until: holdUntil.toISOString() },
      );
    const recipientUserId = await ownerOfAddress(ctx.db, chain, address);
    if (recipientUserId === userId) throw new FieldError('address', 'validation.withdrawAddressOwn');
    if (isAddressBookOnly && !ctx.options.isWhitelistMode) {
      // A withdrawal signed with an API key: only to an address-book entry.
      const [entry] = await ctx.db
        .select({ id: addressBook.id })
        .from(addressBook)
        .where(
          and(eq(addressBook.userId, userId), eq(addressBook.network, body.network), eq(addressBook.address, address)),
        );
      if (!entry) throw new FieldError('address', 'validation.apiKeyAddressBookOnly');
    }
    if (ctx.options.isWhitelistMode) {
      const [entry] = await ctx.db
        .select()
        .from(addressBook)
        .where(
          and(
            eq(addressBook.userId, userId),
            eq(addressBook.network, body.network),
            eq(addressBook.address, address),
            lte(addressBook.usableAt, ctx.now()),
          ),
        );
      if (!entry) throw new FieldError('address', 'validation.withdrawAddressNotWhitelisted');
    }
    const type: 'INTERNAL' | 'OUTER' = recipientUserId ? 'INTERNAL' : 'OUTER';
    const feeMinor = type === 'INTERNAL' ? 0n : found.net.withdrawFeeMinor;
    // Checked again, atomically, by the ledger when the withdrawal posts; here so that a refusal comes before any code is used.
    if ((await accountBalance(ctx.db, userAccount(userId, 'USER_AVAILABLE', asset))) < amountMinor + feeMinor)
      throw new DomainError('INSUFFICIENT_BALANCE');
    const usdPerCoin = await price(ctx, asset);
    if (usdPerCoin === null) throw new DomainError('PRICE_UNAVAILABLE');
    const usdCents = usdValueCents(amountMinor, asset, usdPerCoin);
    return { asset, chain, address, amountMinor, feeMinor, type, recipientUserId, usdCents };
  }

  /**
   * `POST wallet/withdraw/check`: the dry run of a withdrawal — the same checks
   * (`planWithdrawal`), nothing recorded, no factor asked. Amounts are decimal strings of the coin.
   * @throws as `requestWithdrawal` minus CONFLICT.
   */
  async function checkWithdrawal(
    userId: string,
    body: ParsedWithdrawCheckBody,
    options: WithdrawalOptions = {},
  ): Promise<WithdrawCheckContent> {
    const plan = await planWithdrawal(userId, body, options.isAddressBookOnly);
    assertWithinLimits(await limitUsageOf(ctx, ctx.db, userId), plan.usdCents);
    return {
      coinCode: plan.asset,
      network: body.network,
      address: plan.address,
      type: plan.type,
      amount: toDecimalString(plan.amountMinor, plan.asset),
      fee: toDecimalString(plan.feeMinor, plan.asset),
      totalDebited: toDecimalString(plan.amountMinor + plan.feeMinor, plan.asset),
    };
  }

  /**
   * `POST wallet/withdraw`: validate, then in one transaction record the withdrawal and post its
   * entry. OUTER: amount + fee move from available to frozen (status 0, waiting for an operator).
   * INTERNAL (the address is another user's deposit address): the amount moves to that user at once,
   * no fee (status 2), with an INTERNAL deposit on their side.
   *
   * `idempotencyKey` is stored on the withdrawal (unique per user); replays, racing twins and a key
   * reused with another request are answered by the route layer's one store before this runs
   * (`runIdempotent`, docs/api.md "Idempotency"), so a retry after a lost answer needs no fresh
   * code. `verifyFactors` (the sensitive-action check, which uses up one-time codes) runs after
   * every other check passed.
   * A frozen account is refused first, and again inside the transaction.
   *
   * The USD value of the amount (market price at request time) is stored on the row and counted
   * against the level's limits; the limit is checked again in the transaction under a
   * per-user lock, so two racing withdrawals cannot both pass it.
   *
   * @throws DomainError ACCOUNT_FROZEN (152), WITHDRAW_UNAVAILABLE (135), SECURITY_HOLD (106), INSUFFICIENT_BALANCE (130), CONFLICT (121),
   *   PRICE_UNAVAILABLE (134), WITHDRAW_LIMIT_EXCEEDED (150)
   * @throws FieldError on `network` (unknown), `address` (invalid for the network, burn/contract
   *   destination, own address, not whitelisted) and `amount` (format, precision, zero, limits)
   */
  async function requestWithdrawal(
    userId: string,
    body: ParsedWithdrawBody,
    idempotencyKey: string | undefined,
    factors: FactorCheck = NO_FACTORS,
    options: WithdrawalOptions = {},
  ): Promise<WalletRecord> {
    const plan = await planWithdrawal(userId, body, options.isAddressBookOnly);
    const { asset, address, amountMinor, feeMinor, type, recipientUserId, usdCents } = plan;
    // Checked again under the user's withdrawal lock below; here so that a refusal comes before any code is checked.
    assertWithinLimits(await limitUsageOf(ctx, ctx.db, userId), usdCents);
    // The one-time factors last: a refused or replayed request never uses up a code, and the code is
    // used up in the withdrawal's own transaction (5).
    await factors.check();
    const row = await ctx.db.transaction(async (tx) => {
      // One withdrawal of a user at a time: the limit is checked against every committed one.
      await lockUserWithdrawals(tx, userId);
      // A freeze that committed since the first check stops the withdrawal too.
      await ctx.options.identity.assertNotFrozen(userId, tx);
      assertWithinLimits(await limitUsageOf(ctx, tx, userId), usdCents);
      const [created] = await tx
        .insert(withdrawals)
        .values({
          userId,
          coinCode: asset,
          network: body.network,
          address,
          amountMinor,
          feeMinor,
          type,
          status: type === 'INTERNAL' ? WITHDRAW_STATUS.SUCCESS : WITHDRAW_STATUS.WAITING,
          recipientUserId: recipientUserId ?? null,
          txHash: type === 'INTERNAL' ? null : null,
          idempotencyKey: idempotencyKey ?? null,
          requestHash: REQUEST_HASH_IN_STORE,
          usdValue: toDecimalString(usdCents, 'USD'),
          // From the app's clock, not the column's default: the 24-hour and monthly limits compare it with the clock.
          createdAt: ctx.now(),
        })
        .returning();
      const w = created!;
      if (type === 'OUTER') {
        await postEntry(tx, {
          kind: 'WITHDRAWAL_FREEZE',
          reference: `withdrawal:${w.id}`,
          idempotencyKey: `withdrawal:${w.id}:freeze`,
          postings: transfer(
            userAccount(userId, 'USER_AVAILABLE', asset),
            userAccount(userId, 'USER_FROZEN', asset),
            amountMinor + feeMinor,
          ),
        });
        await factors.consume(tx);
        await options.settleAnswer?.(tx, toWithdrawRecord(w));
        return w;
      }
      const { entry } = await postEntry(tx, {
        kind: 'INTERNAL_TRANSFER',
        reference: `withdrawal:${w.id}`,
        idempotencyKey: `withdrawal:${w.id}:internal`,
        postings: transfer(
          userAccount(userId, 'USER_AVAILABLE', asset),
          userAccount(recipientUserId!, 'USER_AVAILABLE', asset),
          amountMinor,
        ),
      });
      await tx.insert(deposits).values({
        createdAt: ctx.now(),
        userId: recipientUserId!,
        coinCode: asset,
        network: body.network,
        address,
        txHash: `internal:${w.id}`,
        outputIndex: 0,
        amountMinor,
        confirmations: 0,
        type: 'INTERNAL',
        status: 'CREDITED',
        entryId: entry.id,
        creditedAt: ctx.now(),
      });
      await factors.consume(tx);
      await options.settleAnswer?.(tx, toWithdrawRecord(w));
      return w;
    });
    // The request itself is a security mail too (it carries a freeze link).
    await notifyWithdrawal(ctx, row);
    return toWithdrawRecord(row);
  }

  /**
   * The user cancels a waiting (0) withdrawal: status 4, amount + fee back to available. Allowed
   * for a frozen account: the coins come back into the account, nothing leaves it.
   */
  async function cancelWithdrawal(userId: string, id: number): Promise<WalletRecord> {
    const row = await ctx.db.transaction((tx) =>
      transition(ctx, tx, id, [0], 4, {}, (w) => returnEntry(w, 'cancel'), userId),
    );
    await notifyWithdrawal(ctx, row);
    return toWithdrawRecord(row);
  }

  /**
   * Cancel every waiting (0) withdrawal of `userId` back to available, each through
   * `cancelWithdrawal` (its ledger return entry and message): the freeze link. One that
   * an operator moved on meanwhile is left as it is. @returns how many were cancelled.
   */
  async function cancelPendingWithdrawals(userId: string): Promise<number> {
    const waiting = await ctx.db
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.userId, userId),
          eq(withdrawals.type, 'OUTER'),
          eq(withdrawals.status, WITHDRAW_STATUS.WAITING),
        ),
      );
    let cancelled = 0;
    for (const { id } of waiting) {
      try {
        await cancelWithdrawal(userId, id);
        cancelled += 1;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'WITHDRAW_STATE_CHANGED') throw error;
      }
    }
    return cancelled;
  }

  return { checkWithdrawal, requestWithdrawal, cancelWithdrawal, cancelPendingWithdrawals };
}
