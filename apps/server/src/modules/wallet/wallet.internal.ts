import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { type WalletRecord, WITHDRAW_STATUS, type WithdrawStatus } from '@meridian/contracts/wallet';
import Decimal from 'decimal.js';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { FieldError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer } from '../ledger/ledger.types.ts';
import { type Chain, chainOf, normalizeAddress } from './wallet.addresses.ts';
import { limitUsage } from './wallet.limits.ts';
import { recordAlert } from './wallet.screening.ts';
import {
  blockedDestinations,
  coinNetworks,
  coins,
  depositAddresses,
  deposits,
  type withdrawals,
} from './wallet.tables.ts';
import type { FactorCheck, OpsWithdrawal, WalletServiceOptions } from './wallet.types.ts';

/** The context every part of the wallet service shares (imported only inside the module). */
export interface WalletContext {
  db: Db;
  /** The history's reads (`WalletServiceOptions.reads`; the primary when none). */
  reads: Db;
  /** The app's clock (`WalletServiceOptions.clock`). */
  now: () => Date;
  options: WalletServiceOptions;
}

/** A `withdrawals` row as stored. */
export type WithdrawalRow = typeof withdrawals.$inferSelect;
/** A `deposits` row as stored. */
export type DepositRow = typeof deposits.$inferSelect;

/** Stablecoins valued at 1 USD when no price source answers (until the markets issue). */
export const STABLECOINS: readonly AssetCode[] = ['USDT', 'USDC', 'USDE'];

/** The default of LARGE_WITHDRAWAL_USD: 10,000 USD. */
export const LARGE_WITHDRAWAL_USD_DEFAULT = '10000';

/** For callers that are not HTTP requests (CLI, tests): no factor to check. */
export const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

/** A stored coin code as an asset. @throws Error when the code is not a known asset (a broken row). */
export function asAsset(code: string): AssetCode {
  if (!isAssetCode(code)) throw new Error(`unknown asset ${code} in the coins table`);
  return code;
}

/**
 * USD per one `asset` as an exact decimal string, by the account overview's rule: the price source,
 * else 1 for stablecoins and USD; null when unknown. A price source that fails counts as none.
 */
export async function price(ctx: WalletContext, asset: AssetCode): Promise<string | null> {
  // EURE is EUR e-money (1 EURE = 1 EUR): valued at the EUR rate the cards' top-ups use, so the
  // wallet and the card account agree on what a euro is worth.
  if (asset === 'EURE') return (await ctx.options.cardHoldings?.usdPerUnit('EUR').catch(() => null)) ?? null;
  const quoted = await ctx.options.prices.usdPerCoin(asset).catch(() => null);
  if (quoted !== null) return quoted;
  // USD (fund shares) is the unit itself.
  return STABLECOINS.includes(asset) || asset === 'USD' ? '1' : null;
}

/** The coin and network rows, or undefined when the coin is disabled or does not move on the network. */
export async function findNetwork(db: DbOrTx, coinCode: string, network: string) {
  const [row] = await db
    .select({ coin: coins, net: coinNetworks })
    .from(coinNetworks)
    .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
    .where(and(eq(coinNetworks.coinCode, coinCode), eq(coinNetworks.network, network), eq(coins.isEnabled, true)));
  return row;
}

/** Owner of a deposit address on `chain`, if it is one of ours. */
export async function ownerOfAddress(db: DbOrTx, chain: Chain, address: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: depositAddresses.userId })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.chain, chain), eq(depositAddresses.address, address)));
  return row?.userId;
}

/**
 * The network row of a coin, whether switched on or not.
 * @throws FieldError on `network` (validation.networkRequired) when the coin does not move on it
 *   (a client mistake: "FOO", "trc20", "ERC20 ").
 */
export async function findKnownNetwork(ctx: WalletContext, coinCode: string, network: string, field = 'network') {
  const [row] = await ctx.db
    .select({ coin: coins, net: coinNetworks })
    .from(coinNetworks)
    .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
    .where(and(eq(coinNetworks.coinCode, coinCode), eq(coinNetworks.network, network)));
  if (!row || !chainOf(network)) throw new FieldError(field, 'validation.networkRequired');
  return row;
}

/**
 * A destination on `network` in canonical form.
 * @throws FieldError on `address`: not valid on the network, or a known burn/contract destination
 *   (`blocked_destinations`), or an address on a sanctions list (screening,
 *   docs/kyc.md "Address screening": the hit is stored as a screening alert of `kind` and logged, with the user and
 *   the list).
 */
export async function checkDestination(
  ctx: WalletContext,
  network: string,
  text: string,
  userId: string,
  kind: 'withdrawal' | 'address_book',
): Promise<string> {
  const address = normalizeAddress(network, text);
  if (!address) throw new FieldError('address', 'validation.withdrawAddressInvalid', { network });
  const [blocked] = await ctx.db
    .select()
    .from(blockedDestinations)
    .where(and(eq(blockedDestinations.network, network), eq(blockedDestinations.address, address)));
  if (blocked) throw new FieldError('address', 'validation.withdrawAddressBlocked', { network });
  const screening = await ctx.options.screening?.screen(network, address);
  if (screening?.status === 'hit') {
    ctx.options.log.warn(
      { alert: 'address-screening-hit', userId, network, address, listName: screening.listName },
      'screening alert: sanctioned destination refused',
    );
    await recordAlert(ctx.db, {
      userId,
      kind,
      network,
      address,
      listName: screening.listName,
      referenceId: null,
    });
    throw new FieldError('address', 'validation.addressSanctioned');
  }
  return address;
}

/** The user's withdrawal limits and what is used of them now, read on `db` at the user's identity level. */
export async function limitUsageOf(ctx: WalletContext, db: DbOrTx, userId: string) {
  return limitUsage(db, userId, await ctx.options.identity.kycLevelOf(userId, db), ctx.now());
}

/**
 * Whether a withdrawal is large: OUTER and its USD value at request time over
 * LARGE_WITHDRAWAL_USD. A row without a USD value (made before values were stored) is not.
 */
export function isLarge(ctx: WalletContext, row: WithdrawalRow): boolean {
  if (row.type !== 'OUTER' || row.usdValue === null) return false;
  return new Decimal(row.usdValue).gt(ctx.options.largeWithdrawalUsd ?? LARGE_WITHDRAWAL_USD_DEFAULT);
}

/**
 * Tell the owner a withdrawal changed status, after the change committed. A failed message is
 * logged: the withdrawal itself stands.
 */
export async function notifyWithdrawal(ctx: WalletContext, row: WithdrawalRow): Promise<void> {
  await ctx.options.notifier
    ?.withdrawalStatusChanged(
      row.userId,
      asAsset(row.coinCode),
      toDecimalString(row.amountMinor, asAsset(row.coinCode)),
      row.status as WithdrawStatus,
    )
    .catch((error: unknown) => ctx.options.log.warn({ err: error }, 'withdrawal notification failed'));
}

/** A withdrawal as the user's record shows it (amounts as decimal strings of the coin). */
export function toWithdrawRecord(row: WithdrawalRow): WalletRecord {
  const asset = asAsset(row.coinCode);
  return {
    id: String(row.id),
    action: 'withdraw',
    coinCode: asset,
    network: row.network,
    address: row.address,
    amount: toDecimalString(row.amountMinor, asset),
    fee: toDecimalString(row.feeMinor, asset),
    type: row.type === 'INTERNAL' ? 'INTERNAL' : 'OUTER',
    status: row.status,
    txHash: row.txHash,
    confirmations: null,
    createTime: row.createdAt.toISOString(),
  };
}

/** A withdrawal as the operators' API shows it (`OpsWithdrawal`). */
export function toOpsWithdrawal(ctx: WalletContext, row: WithdrawalRow): OpsWithdrawal {
  return {
    ...toWithdrawRecord(row),
    userId: row.userId,
    failureReason: row.failureReason,
    operatorEmail: row.operatorEmail,
    usdValue: row.usdValue,
    needsSecondApproval: isLarge(ctx, row),
    approvedBy: row.approvedBy,
  };
}

/** A deposit as the user's record shows it (status 2 once credited, 0 before; amounts as decimal strings). */
export function toDepositRecord(row: DepositRow): WalletRecord {
  const asset = asAsset(row.coinCode);
  return {
    id: String(row.id),
    action: 'deposit',
    coinCode: asset,
    network: row.network,
    address: row.address,
    amount: toDecimalString(row.amountMinor, asset),
    fee: toDecimalString(0n, asset),
    type: row.type === 'INTERNAL' ? 'INTERNAL' : 'OUTER',
    status: row.status === 'CREDITED' ? WITHDRAW_STATUS.SUCCESS : WITHDRAW_STATUS.WAITING,
    txHash: row.type === 'INTERNAL' ? null : row.txHash,
    confirmations: row.type === 'INTERNAL' ? null : row.confirmations,
    confirmationsRequired: row.type === 'INTERNAL' ? null : row.confirmationsRequired,
    createTime: row.createdAt.toISOString(),
  };
}

/**
 * A confirmed deposit from a source with an unreleased screening alert: PENDING → FROZEN and one
 * DEPOSIT entry hot wallet → SUSPENSE (the coins are accounted for, not the user's to spend) until an
 * operator releases the alert. The status claim and the entry's key make a repeat change nothing;
 * answers the row as it stands when it was not PENDING. The one-at-a-time and the per-block credit
 * paths both use it (`wallet.deposits.ts`, `wallet.deposit-batch.ts`).
 */
export async function freezeDepositInTx(tx: Tx, row: DepositRow): Promise<DepositRow> {
  const [claimed] = await tx
    .update(deposits)
    .set({ status: 'FROZEN' })
    .where(and(eq(deposits.id, row.id), eq(deposits.status, 'PENDING')))
    .returning();
  if (!claimed) return row;
  const asset = asAsset(row.coinCode);
  const { entry } = await postEntry(tx, {
    kind: 'DEPOSIT',
    reference: `deposit:${row.id}`,
    idempotencyKey: `deposit:${row.id}:freeze`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', asset),
      platformAccount('SUSPENSE', asset),
      row.amountMinor,
    ),
    metadata: { network: row.network, txHash: row.txHash, outputIndex: String(row.outputIndex), screening: 'hit' },
  });
  const [done] = await tx.update(deposits).set({ entryId: entry.id }).where(eq(deposits.id, row.id)).returning();
  return done!;
}
