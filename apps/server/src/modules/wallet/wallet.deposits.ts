import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import type { DepositAddressContent } from '@meridian/contracts/wallet';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { type Chain, chainOf, deriveAddress, normalizeAddress } from './wallet.addresses.ts';
import {
  confirmDepositsInTx as confirmDepositBatchInTx,
  recordDepositsInTx as recordDepositBatchInTx,
} from './wallet.deposit-batch.ts';
import { depositAlert, recordAlert } from './wallet.screening.ts';
import { depositAddresses, deposits, hdIndexCounters, screeningAlerts } from './wallet.tables.ts';
import type { ObservedDeposit, PendingConfirmation, RecordedDeposit } from './wallet.types.ts';
import {
  asAsset,
  type DepositRow,
  findKnownNetwork,
  freezeDepositInTx,
  findNetwork,
  ownerOfAddress,
  type WalletContext,
} from './wallet.internal.ts';

/**
 * Moves deposit `depositId` from `fromStatus` to CREDITED and posts its amount to the user's
 * available balance, once: from the hot wallet for a PENDING deposit, from SUSPENSE for a FROZEN
 * one an operator released. The status claim and the entry's idempotency key make a
 * repeated call change nothing. Undefined when the deposit is not in `fromStatus`.
 */
export async function creditDepositInTx(
  ctx: WalletContext,
  tx: Tx,
  depositId: number,
  fromStatus: 'PENDING' | 'FROZEN',
): Promise<DepositRow | undefined> {
  const [claimed] = await tx
    .update(deposits)
    .set({ status: 'CREDITED', creditedAt: ctx.now() })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, fromStatus)))
    .returning();
  if (!claimed) return undefined;
  const asset = asAsset(claimed.coinCode);
  const isRelease = fromStatus === 'FROZEN';
  const { entry } = await postEntry(tx, {
    kind: 'DEPOSIT',
    reference: `deposit:${claimed.id}`,
    idempotencyKey: `deposit:${claimed.id}:${isRelease ? 'release' : 'credit'}`,
    postings: transfer(
      platformAccount(isRelease ? 'SUSPENSE' : 'PLATFORM_HOT_WALLET', asset),
      userAccount(claimed.userId, 'USER_AVAILABLE', asset),
      claimed.amountMinor,
    ),
    metadata: { network: claimed.network, txHash: claimed.txHash, outputIndex: String(claimed.outputIndex) },
  });
  const [done] = await tx.update(deposits).set({ entryId: entry.id }).where(eq(deposits.id, claimed.id)).returning();
  return done;
}

/** Deposit addresses and deposits: recorded once, screened, credited once (or frozen for review). */
export function createDepositsService(ctx: WalletContext) {
  /**
   * The user's deposit address for `coinCode` on `network`, derived on first request at the chain's
   * next index (`hd_index_counters`, one atomic upsert: an index is never given twice). One address
   * per user per chain: ETH and every ERC20 token share it.
   * @throws FieldError on `net` when the coin does not move on the network;
   *   DomainError DEPOSIT_UNAVAILABLE (136) when the coin or its network is switched off.
   */
  async function depositAddress(userId: string, coinCode: AssetCode, network: string): Promise<DepositAddressContent> {
    const found = await findKnownNetwork(ctx, coinCode, network, 'net');
    const chain = chainOf(network);
    if (!found.coin.isEnabled || !found.net.isDepositEnabled || !chain) throw new DomainError('DEPOSIT_UNAVAILABLE');
    const address = await addressOf(userId, chain);
    return { coinCode, network, address, confirmationsRequired: found.net.confirmationsRequired };
  }

  async function addressOf(userId: string, chain: Chain): Promise<string> {
    const [existing] = await ctx.db
      .select()
      .from(depositAddresses)
      .where(and(eq(depositAddresses.userId, userId), eq(depositAddresses.chain, chain)));
    if (existing) return existing.address;
    return ctx.db.transaction(async (tx) => {
      const [counter] = await tx
        .insert(hdIndexCounters)
        .values({ chain, nextIndex: 1 })
        .onConflictDoUpdate({
          target: hdIndexCounters.chain,
          set: { nextIndex: sql`${hdIndexCounters.nextIndex} + 1` },
        })
        .returning({ nextIndex: hdIndexCounters.nextIndex });
      const index = counter!.nextIndex - 1;
      const address = deriveAddress(chain, ctx.options.xpubs[chain], index);
      const [inserted] = await tx
        .insert(depositAddresses)
        .values({ userId, chain, derivationIndex: index, address })
        .onConflictDoNothing({ target: [depositAddresses.userId, depositAddresses.chain] })
        .returning();
      if (inserted) return inserted.address;
      // A concurrent request of the same user won; its address stands (this index stays unused).
      const [winner] = await tx
        .select()
        .from(depositAddresses)
        .where(and(eq(depositAddresses.userId, userId), eq(depositAddresses.chain, chain)));
      return winner!.address;
    });
  }

  /** For the deposit CLI outside production: the deposit address of the account with `email`. */
  async function depositAddressByEmail(
    email: string,
    coinCode: AssetCode,
    network: string,
  ): Promise<DepositAddressContent> {
    const userId = await ctx.options.identity.findUserIdByEmail(email);
    if (!userId) throw new DomainError('NOT_FOUND');
    return depositAddress(userId, coinCode, network);
  }

  /**
   * Record one observed incoming transfer and credit it once it is confirmed: the one credit path of
   * every deposit source (the custody webhook, the chain watcher of `modules/chain`). In `tx`:
   * refused (nothing recorded) for a disabled coin/network or an address that is not a deposit
   * address of ours; otherwise the transfer is recorded once per (network, txHash, outputIndex) as
   * PENDING, its confirmations kept at the highest reported, its source screened, and — when the
   * confirmations reach `confirmationsRequired` (default: the network's setting) or `isFinal` —
   * credited exactly once (one DEPOSIT entry hot wallet → user), or FROZEN when the source is on a
   * sanctions list. The caller sends the credit notice after its commit (`notifyDepositCredited`).
   * @throws DomainError DEPOSIT_UNAVAILABLE, UNKNOWN_DEPOSIT_ADDRESS; CONFLICT when the same output
   *   was recorded with another owner, coin or amount.
   */
  async function recordDepositInTx(tx: Tx, input: ObservedDeposit): Promise<RecordedDeposit> {
    const found = await findNetwork(tx, input.coin, input.network);
    const chain = chainOf(input.network);
    if (!found || !found.net.isDepositEnabled || !chain) throw new DomainError('DEPOSIT_UNAVAILABLE');
    const address = normalizeAddress(input.network, input.address) ?? input.address;
    const userId = await ownerOfAddress(tx, chain, address);
    if (!userId) throw new DomainError('UNKNOWN_DEPOSIT_ADDRESS');
    const { amountMinor } = input;
    const confirmationsRequired = input.confirmationsRequired ?? found.net.confirmationsRequired;
    const fromAddress = input.fromAddress?.trim() ?? null;
    const [row] = await tx
      .insert(deposits)
      .values({
        createdAt: ctx.now(),
        userId,
        coinCode: input.coin,
        network: input.network,
        address,
        txHash: input.txHash,
        outputIndex: input.outputIndex,
        amountMinor,
        confirmations: input.confirmations,
        confirmationsRequired,
        type: 'OUTER',
        status: 'PENDING',
        fromAddress,
      })
      .onConflictDoUpdate({
        target: [deposits.network, deposits.txHash, deposits.outputIndex],
        set: {
          confirmations: sql`GREATEST(${deposits.confirmations}, excluded.confirmations)`,
          fromAddress: sql`COALESCE(${deposits.fromAddress}, excluded.from_address)`,
        },
        setWhere: sql`${deposits.userId} = excluded.user_id AND ${deposits.coinCode} = excluded.coin_code AND ${deposits.amountMinor} = excluded.amount_minor`,
      })
      .returning();
    // A report of the same output with another owner, coin or amount is refused, not merged.
    if (!row) throw new DomainError('CONFLICT');
    await screenDepositSource(tx, row);
    const final =
      row.status === 'PENDING' && (input.isFinal === true || row.confirmations >= confirmationsRequired)
        ? await creditOrFreezeInTx(tx, row)
        : row;
    return {
      row: final,
      userId,
      coinCode: input.coin,
      amount: toDecimalString(amountMinor, input.coin),
      isCreditedNow: final.status === 'CREDITED' && row.status === 'PENDING',
    };
  }

  /**
   * `recordDepositInTx` for many transfers in a fixed number of statements, same outcome as one at a
   * time in order (`wallet.deposit-batch.ts`; the chain watcher's per-block path). Distinct
   * (network, txHash, outputIndex) per call. @throws as `recordDepositInTx`, for the whole batch.
   */
  async function recordDepositsInTx(tx: Tx, inputs: readonly ObservedDeposit[]): Promise<RecordedDeposit[]> {
    return recordDepositBatchInTx(tx, { now: ctx.now, screening: ctx.options.screening, log: ctx.options.log }, inputs);
  }

  /**
   * The chain watcher's confirmation pass over PENDING deposits, set-based (`wallet.deposit-batch.ts`
   * `confirmDepositsInTx`): confirmations raised, those due credited or frozen once. The caller sends
   * the credit notices after its commit (`notifyDepositsCredited`).
   */
  async function confirmDepositsInTx(tx: Tx, items: readonly PendingConfirmation[]): Promise<RecordedDeposit[]> {
    return confirmDepositBatchInTx(tx, { now: ctx.now, screening: ctx.options.screening, log: ctx.options.log }, items);
  }

  /** Tell the owner that a deposit was credited (after the commit of `recordDepositInTx`); never throws. */
  async function notifyDepositCredited(
    recorded: Pick<RecordedDeposit, 'userId' | 'coinCode' | 'amount'>,
  ): Promise<void> {
    await ctx.options.notifier
      ?.depositCredited(recorded.userId, recorded.coinCode, recorded.amount)
      .catch((error: unknown) => ctx.options.log.warn({ err: error }, 'deposit notification failed'));
  }

  /**
   * `notifyDepositCredited` for many credits (after the commit of `recordDepositsInTx`): one message
   * each, written in a few statements however many there are; never throws.
   */
  async function notifyDepositsCredited(
    recorded: readonly Pick<RecordedDeposit, 'userId' | 'coinCode' | 'amount'>[],
  ): Promise<void> {
    if (recorded.length === 0) return;
    await ctx.options.notifier
      ?.depositsCredited(recorded.map(({ userId, coinCode, amount }) => ({ userId, coinCode, amount })))
      .catch((error: unknown) => ctx.options.log.warn({ err: error }, 'deposit notification failed'));
  }

  /**
   * A PENDING deposit whose transfer is gone (its block left the canonical chain): deleted with
   * its screening alert, in `tx`. True when it was PENDING (nothing was ever posted for it); false
   * when it is credited or frozen, which is never undone here (the caller raises the alarm).
   */
  async function dropPendingDepositInTx(tx: Tx, depositId: number): Promise<boolean> {
    const [dropped] = await tx
      .delete(deposits)
      .where(and(eq(deposits.id, depositId), eq(deposits.status, 'PENDING')))
      .returning({ id: deposits.id });
    if (!dropped) return false;
    await tx
      .delete(screeningAlerts)
      .where(and(eq(screeningAlerts.kind, 'deposit'), eq(screeningAlerts.referenceId, String(depositId))));
    return true;
  }

  /** Status of deposit `depositId` ('PENDING' | 'CREDITED' | 'FROZEN'), or undefined when there is none. */
  async function depositStatusInTx(tx: Tx, depositId: number): Promise<string | undefined> {
    const [row] = await tx.select({ status: deposits.status }).from(deposits).where(eq(deposits.id, depositId));
    return row?.status;
  }

  /**
   * Deposit addresses on `chain` with an id above `afterId`, in id order, at most `limit` (the chain
   * watcher's address index reads them incrementally).
   */
  async function depositAddressesAfter(
    chain: Chain,
    afterId: number,
    limit: number,
  ): Promise<{ id: number; userId: string; address: string }[]> {
    return ctx.db
      .select({ id: depositAddresses.id, userId: depositAddresses.userId, address: depositAddresses.address })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.chain, chain), sql`${depositAddresses.id} > ${afterId}`))
      .orderBy(asc(depositAddresses.id))
      .limit(limit);
  }

  /**
   * Screen a deposit's source: a source on a sanctions list records one alert for the
   * deposit (unique per deposit: a repeated report does not alert again) and is logged without the
   * user being told. The deposit is then frozen instead of credited (`creditOrFreezeInTx`).
   */
  async function screenDepositSource(tx: Tx, row: DepositRow): Promise<void> {
    if (!row.fromAddress || !ctx.options.screening) return;
    const screening = await ctx.options.screening.screen(row.network, row.fromAddress);
    if (screening.status !== 'hit') return;
    const alertId = await recordAlert(tx, {
      userId: row.userId,
      kind: 'deposit',
      network: row.network,
      address: row.fromAddress,
      listName: screening.listName,
      referenceId: String(row.id),
    });
    if (alertId !== undefined)
      ctx.options.log.warn(
        { alert: 'deposit-source-screening-hit', userId: row.userId, depositId: row.id, listName: screening.listName },
        'screening alert: deposit from a sanctioned source frozen for review',
      );
  }

  /**
   * A confirmed deposit: credited to the user, unless its source has a screening alert that is not
   * released — then FROZEN: one DEPOSIT entry hot wallet → SUSPENSE (the coins are accounted for,
   * not the user's to spend) until an operator releases the alert (`releaseScreeningAlert`).
   */
  async function creditOrFreezeInTx(tx: Tx, row: DepositRow): Promise<DepositRow> {
    const alert = await depositAlert(tx, row.id);
    if (!alert || alert.status === 'released') return creditInTx(tx, row);
    return freezeDepositInTx(tx, row);
  }

  async function creditInTx(tx: Tx, row: DepositRow): Promise<DepositRow> {
    return (await creditDepositInTx(ctx, tx, row.id, 'PENDING')) ?? row;
  }

  return {
    depositAddress,
    depositAddressByEmail,
    recordDepositInTx,
    recordDepositsInTx,
    confirmDepositsInTx,
    notifyDepositCredited,
    notifyDepositsCredited,
    dropPendingDepositInTx,
    depositStatusInTx,
    depositAddressesAfter,
  };
}

/** The deposits part of the wallet service. */
export type DepositsPart = ReturnType<typeof createDepositsService>;
