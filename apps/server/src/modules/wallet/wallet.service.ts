import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import type { OpsDeposit, OpsDepositStatus } from '@meridian/contracts/back-office';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import {
  type AddressBookEntry,
  type BalanceContent,
  type ParsedCustodyWebhookBody,
  type ParsedWithdrawBody,
  type ParsedWithdrawCheckBody,
  type DepositAddressContent,
  type OpsWithdrawalLimit,
  type ScreeningAlert,
  type ScreeningAlertStatus,
  type WalletCoin,
  type WalletRecord,
  type WalletRecordQuery,
  WITHDRAW_STATUS,
  type WithdrawCheckContent,
  type WithdrawLimitsContent,
  type WithdrawStatus,
} from '@meridian/contracts/wallet';
import Decimal from 'decimal.js';
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { HDKey } from '@scure/bip32';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry, userBalances, userPostingsPage } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { type Chain, chainOf, deriveAddress, normalizeAddress } from './wallet.addresses.ts';
import type { AddressScreeningProvider } from '../../platform/screening/address-screening.ts';
import {
  assertWithinLimits,
  type LevelLimitsCents,
  limitUsage,
  listLimits,
  lockUserWithdrawals,
  setLimits,
  toLimitsContent,
  usdValueCents,
} from './wallet.limits.ts';
import { recordDepositsInTx } from './wallet.deposit-batch.ts';
import { decideAlert, depositAlert, listAlerts, recordAlert, toScreeningAlert } from './wallet.screening.ts';
import {
  addressBook,
  blockedDestinations,
  coinNetworks,
  coins,
  custodyDeliveries,
  depositAddresses,
  deposits,
  hdIndexCounters,
  screeningAlerts,
  withdrawals,
} from './wallet.tables.ts';

/**
 * One incoming transfer as a deposit source saw it (custody webhook, chain watcher). Amounts in
 * minor units of `coin`; `outputIndex` is the output (Bitcoin), the log index (ERC-20) or -1 (a
 * transaction's own ETH value).
 */
export interface ObservedDeposit {
  network: string;
  coin: AssetCode;
  address: string;
  txHash: string;
  outputIndex: number;
  amountMinor: bigint;
  confirmations: number;
  fromAddress?: string | undefined;
  /** Confirmations needed to credit; default: the network's `confirmations_required`. */
  confirmationsRequired?: number | undefined;
  /** The block is final (the node's `finalized` tag): credit whatever the count. */
  isFinal?: boolean | undefined;
}

/** What `recordDepositInTx` did: the row as it stands, and whether this call credited it. */
export interface RecordedDeposit {
  row: typeof deposits.$inferSelect;
  userId: string;
  coinCode: AssetCode;
  /** Decimal string in the coin's precision. */
  amount: string;
  isCreditedNow: boolean;
}

/** USD per one coin as an exact decimal string, or null when no price is available now. */
export interface UsdPriceSource {
  usdPerCoin(coinCode: AssetCode): Promise<string | null>;
}

/** Stablecoins valued at 1 USD when no price source answers (until the markets issue). */
const STABLECOINS: readonly AssetCode[] = ['USDT', 'USDC', 'USDE'];

/** What the wallet needs from the identity module (its service satisfies this). */
export interface WalletIdentity {
  /** Until when withdrawals are held after a security change, or null. */
  withdrawalHoldUntil(userId: string): Promise<Date | null>;
  /** The active account with this email (custody address look-up for the deposit CLI). */
  findUserIdByEmail(email: string): Promise<string | null>;
  /**
   * The user's identity level 0–3 (the withdrawal limits are per level), read in `db` —
   * the caller's transaction when it holds one (on PGlite a read outside it would wait for it).
   */
  kycLevelOf(userId: string, db?: DbOrTx): Promise<number>;
  /**
   * Refuse money movement of a frozen account, read on `db` (the caller's transaction
   * when given). @throws DomainError ACCOUNT_FROZEN (152).
   */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
}

/** Messages the wallet sends to users (wired to the notices module). Failures never undo money. */
export interface WalletNotifier {
  depositCredited(userId: string, coinCode: AssetCode, amount: string): Promise<void>;
  /** A withdrawal moved to `status` (1 processing, 2 success, 3 failure, 4 cancel). */
  withdrawalStatusChanged(userId: string, coinCode: AssetCode, amount: string, status: WithdrawStatus): Promise<void>;
  addressAdded(userId: string, label: string, network: string, address: string): Promise<void>;
}

export interface WalletServiceOptions {
  /** The history's reads, which may lag (the replica when one is configured, `Database.reads`). Default: the primary. */
  reads?: Db;
  /** Account-level extended public keys per chain (watch-only). */
  xpubs: Record<Chain, HDKey>;
  identity: WalletIdentity;
  prices: UsdPriceSource;
  notifier?: WalletNotifier;
  /** Withdraw only to address-book entries older than 24 hours (off by default). */
  isWhitelistMode: boolean;
  /**
   * USD as a decimal string (LARGE_WITHDRAWAL_USD, default "10000"): an OUTER withdrawal whose USD
   * value at request time is over it needs a second finance operator's approval (`approveWithdrawal`)
   * before a different operator processes it.
   */
  largeWithdrawalUsd?: string;
  /** Log refused webhooks and failed notifications. */
  log: { warn(detail: object, message: string): void; info(detail: object, message: string): void };
  /**
   * Address screening (KYT): withdrawal destinations and address-book entries on a
   * sanctions list are refused, a deposit from a listed source is frozen for review, and each hit
   * is stored as a screening alert (and logged). None: no screening.
   */
  screening?: AddressScreeningProvider;
  /** What the user's BTC trusts hold (the trust module), shown as the overview's TrustAccount; none: no line. */
  trustHoldings?: TrustHoldings;
  /** What the user's current loans pledge and owe (the loans module), shown as the overview's LoanAccount; none: no line. */
  loanHoldings?: LoanHoldings;
  /** What the user's cards hold (the cards module), added to the overview's CardAccount; none: ledger only. */
  cardHoldings?: CardHoldings;
  /** The app's clock. */
  clock: () => Date;
}

/** The loans module's part in the account overview. */
export interface LoanHoldings {
  /** BTC pledged (satoshi) and debt per loan coin (minor units) over the user's current loans. */
  holdingsOf(userId: string): Promise<{ collateralMinor: bigint; debts: { coin: AssetCode; debtMinor: bigint }[] }>;
}

/** The cards module's part in the account overview: card balances in their currencies. */
export interface CardHoldings extends TrustHoldings {
  /** USD per one unit of a card currency (the cards' rate table), decimal string; null when unknown. */
  usdPerUnit(asset: AssetCode): Promise<string | null>;
}

/** The trust module's part in the account overview. */
export interface TrustHoldings {
  /** Minor units held per asset, summed over the user's trusts that still hold something. */
  heldMinorByAsset(userId: string): Promise<Map<AssetCode, bigint>>;
}

/** A withdrawal as the operator API shows it (`opsWithdrawalSchema` of the contracts). */
export interface OpsWithdrawal extends WalletRecord {
  userId: string;
  failureReason: string | null;
  operatorEmail: string | null;
  /** USD value of the amount at request time, a decimal string with 2 decimals ("25000.00"); null on old rows. */
  usdValue: string | null;
  /** True when it is over LARGE_WITHDRAWAL_USD: a second operator approves it before another processes it. */
  needsSecondApproval: boolean;
  /** The operator (email) who gave that approval, once given. */
  approvedBy: string | null;
}

/** The default of LARGE_WITHDRAWAL_USD: 10,000 USD. */
const LARGE_WITHDRAWAL_USD_DEFAULT = '10000';

/** A review queue's size and its oldest item (back-office dashboard). */
export interface OperatorQueueSize {
  size: number;
  oldestAt: Date | null;
}

/** A day's deposits or withdrawals of one asset: how many, and the amount in minor units. */
export interface WalletFlowTotal {
  kind: 'deposits' | 'withdrawals';
  asset: string;
  count: number;
  amountMinor: bigint;
}

/** One deposit or withdrawal in a user's history as the back office lists it; amount in minor units of `asset`. */
export interface WalletActivityItem {
  at: Date;
  kind: 'deposit' | 'internalDeposit' | 'withdrawal' | 'internalWithdrawal';
  asset: string;
  amountMinor: bigint;
  /** Deposits: pending, credited, frozen; withdrawals: waiting, processing, success, failure, cancel. */
  status: string;
}

/**
 * A deposit as the back office lists it (`WalletService.listDepositsForOperators`): the contracts'
 * `OpsDeposit` without the owner's email, which the identity module knows. `amount` is a decimal
 * string in the coin's units.
 */
export type OpsDepositRow = Omit<OpsDeposit, 'userEmail'>;

/** Deposit statuses as stored ('PENDING' | 'CREDITED' | 'FROZEN') → as the back office names them. */
function opsDepositStatusOf(stored: string): OpsDepositStatus {
  if (stored === 'CREDITED') return 'credited';
  if (stored === 'FROZEN') return 'frozen';
  return 'pending';
}

function toOpsDepositRow(row: DepositRow): OpsDepositRow {
  const asset = asAsset(row.coinCode);
  const isInternal = row.type === 'INTERNAL';
  return {
    id: String(row.id),
    userId: row.userId,
    coinCode: asset,
    network: row.network,
    address: row.address,
    amount: toDecimalString(row.amountMinor, asset),
    txHash: isInternal ? null : row.txHash,
    fromAddress: row.fromAddress,
    confirmations: row.confirmations,
    type: isInternal ? 'INTERNAL' : 'OUTER',
    status: opsDepositStatusOf(row.status),
    createdAt: row.createdAt.toISOString(),
    creditedAt: row.creditedAt?.toISOString() ?? null,
  };
}

/** Withdrawal statuses by name. */
const WITHDRAW_STATUS_NAMES: Record<WithdrawStatus, string> = {
  0: 'waiting',
  1: 'processing',
  2: 'success',
  3: 'failure',
  4: 'cancel',
};

const WHITELIST_DELAY_MS = 24 * 60 * 60 * 1000;
type WithdrawalRow = typeof withdrawals.$inferSelect;
type DepositRow = typeof deposits.$inferSelect;

function asAsset(code: string): AssetCode {
  if (!isAssetCode(code)) throw new Error(`unknown asset ${code} in the coins table`);
  return code;
}

/**
 * A network's operator settings: the coin's and the network's switches, the withdrawal
 * limits and fee in minor units of the coin (bigint, never a JS number), and the confirmations a
 * deposit needs.
 */
export interface NetworkSettings {
  coinCode: AssetCode;
  network: string;
  isCoinEnabled: boolean;
  isDepositEnabled: boolean;
  isWithdrawEnabled: boolean;
  withdrawMinMinor: bigint;
  withdrawMaxMinor: bigint;
  withdrawFeeMinor: bigint;
  confirmationsRequired: number;
}

/** The fields of `NetworkSettings` an operator may change; undefined = unchanged. */
export type NetworkSettingsPatch = Partial<
  Pick<
    NetworkSettings,
    | 'isDepositEnabled'
    | 'isWithdrawEnabled'
    | 'withdrawMinMinor'
    | 'withdrawMaxMinor'
    | 'withdrawFeeMinor'
    | 'confirmationsRequired'
  >
>;

function toNetworkSettings(coin: typeof coins.$inferSelect, net: typeof coinNetworks.$inferSelect): NetworkSettings {
  return {
    coinCode: asAsset(coin.coinCode),
    network: net.network,
    isCoinEnabled: coin.isEnabled,
    isDepositEnabled: net.isDepositEnabled,
    isWithdrawEnabled: net.isWithdrawEnabled,
    withdrawMinMinor: net.withdrawMinMinor,
    withdrawMaxMinor: net.withdrawMaxMinor,
    withdrawFeeMinor: net.withdrawFeeMinor,
    confirmationsRequired: net.confirmationsRequired,
  };
}

/** USD value with 2 decimals, rounded down (a display of what the user holds never overstates it). */
function usdValue(amountMinor: bigint, asset: AssetCode, usdPerCoin: string | null): string | null {
  if (usdPerCoin === null) return null;
  return new Decimal(toDecimalString(amountMinor, asset))
    .mul(usdPerCoin)
    .toDecimalPlaces(2, Decimal.ROUND_DOWN)
    .toFixed(2);
}

/**
 * The sensitive-action check a service runs last (the request's `SensitiveAction`): `check()` checks the factors after
 * every other check passed; `consume(tx)` uses the one-time codes up as the last step of the action's transaction, so
 * they are used only if it commits; `answeredByReplay()` declares a stored idempotent answer, for which no factor is
 * checked.
 */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}

/** How a withdrawal was asked for. */
export interface WithdrawalOptions {
  /**
   * Signed with a developer API key: the address must be an entry of the user's address
   * book (`validation.apiKeyAddressBookOnly` on `address` otherwise).
   */
  isAddressBookOnly?: boolean;
  /**
   * Stores the answer in the withdrawal's own transaction (the idempotency store's `SettleAnswer`,
   * docs/api.md "Idempotency"), so a server killed after the commit still replays it.
   */
  settleAnswer?: SettleAnswer;
}

/** For callers that are not HTTP requests (CLI, tests): no factor to check. */
const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

/**
 * The wallet: coins and networks, watch-only deposit addresses, custody-reported
 * deposits credited exactly once, withdrawals with their state machine, the address book, balances
 * and history. Every balance change goes through `postEntry` of the ledger module, in the same
 * transaction as the row that records why.
 */
export class WalletService {
  private readonly now: () => Date;
  private readonly reads: Db;
  constructor(
    private readonly db: Db,
    private readonly options: WalletServiceOptions,
  ) {
    this.now = options.clock;
    this.reads = options.reads ?? db;
  }

  // ---------------------------------------------------------------- coins and networks

  /** Enabled coins in display order, each with its networks and their limits (decimal strings). */
  async listCoins(): Promise<WalletCoin[]> {
    const coinRows = await this.db
      .select()
      .from(coins)
      .where(eq(coins.isEnabled, true))
      .orderBy(asc(coins.sortOrder), asc(coins.coinCode));
    const netRows = await this.db.select().from(coinNetworks).orderBy(asc(coinNetworks.id));
    return coinRows
      .filter((coin) => isAssetCode(coin.coinCode))
      .map((coin) => {
        const asset = asAsset(coin.coinCode);
        return {
          coinCode: asset,
          fullName: coin.fullName,
          icon: coin.iconPath,
          precision: coin.precision,
          nets: netRows.filter((net) => net.coinCode === coin.coinCode).map((net) => this.toNetwork(net, asset)),
        };
      });
  }

  /** The networks of one coin (`wallet/network?coin=`); empty for an unknown or disabled coin. */
  async listNetworks(coinCode: AssetCode): Promise<WalletCoin['nets']> {
    return (await this.listCoins()).find((coin) => coin.coinCode === coinCode)?.nets ?? [];
  }

  private toNetwork(net: typeof coinNetworks.$inferSelect, asset: AssetCode): WalletCoin['nets'][number] {
    return {
      network: net.network,
      withdrawMin: toDecimalString(net.withdrawMinMinor, asset),
      withdrawMax: toDecimalString(net.withdrawMaxMinor, asset),
      withdrawFee: toDecimalString(net.withdrawFeeMinor, asset),
      confirmationsRequired: net.confirmationsRequired,
      isDepositEnabled: net.isDepositEnabled,
      isWithdrawEnabled: net.isWithdrawEnabled,
    };
  }

  /**
   * Operators: every network of every known coin, switched off or
   * not, with the coin's own switch; limits and fee in minor units of the coin (bigint), by coin order.
   */
  async listNetworkSettings(db: DbOrTx = this.db): Promise<NetworkSettings[]> {
    const rows = await db
      .select({ coin: coins, net: coinNetworks })
      .from(coinNetworks)
      .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
      .orderBy(asc(coins.sortOrder), asc(coins.coinCode), asc(coinNetworks.id));
    return rows.filter(({ coin }) => isAssetCode(coin.coinCode)).map(({ coin, net }) => toNetworkSettings(coin, net));
  }

  /** One network's settings (see `listNetworkSettings`), or undefined when the coin does not move on it. */
  async networkSettings(coinCode: string, network: string, db: DbOrTx = this.db): Promise<NetworkSettings | undefined> {
    return (await this.listNetworkSettings(db)).find((row) => row.coinCode === coinCode && row.network === network);
  }

  /**
   * Operators: change a network's switches, withdrawal limits and fee (minor units of the coin) and
   * confirmations; fields left out stay. The caller (the back office) has checked min ≤ max and that
   * a fee change was approved by a second operator. Answers the row as it now stands, or undefined
   * when the coin does not move on the network. Takes effect at once (no cache).
   */
  async updateNetworkSettings(
    coinCode: string,
    network: string,
    patch: NetworkSettingsPatch,
    db: DbOrTx = this.db,
  ): Promise<NetworkSettings | undefined> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length > 0)
      await db
        .update(coinNetworks)
        .set(set)
        .where(and(eq(coinNetworks.coinCode, coinCode), eq(coinNetworks.network, network)));
    return this.networkSettings(coinCode, network, db);
  }

  /** The coin and network rows, or undefined when the coin is disabled or does not move on the network. */
  private async findNetwork(db: DbOrTx, coinCode: string, network: string) {
    const [row] = await db
      .select({ coin: coins, net: coinNetworks })
      .from(coinNetworks)
      .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
      .where(and(eq(coinNetworks.coinCode, coinCode), eq(coinNetworks.network, network), eq(coins.isEnabled, true)));
    return row;
  }

  // ---------------------------------------------------------------- deposit addresses

  /**
   * The user's deposit address for `coinCode` on `network`, derived on first request at the chain's
   * next index (`hd_index_counters`, one atomic upsert: an index is never given twice). One address
   * per user per chain: ETH and every ERC20 token share it.
   * @throws FieldError on `net` when the coin does not move on the network;
   *   DomainError DEPOSIT_UNAVAILABLE (136) when the coin or its network is switched off.
   */
  async depositAddress(userId: string, coinCode: AssetCode, network: string): Promise<DepositAddressContent> {
    const found = await this.findKnownNetwork(coinCode, network, 'net');
    const chain = chainOf(network);
    if (!found.coin.isEnabled || !found.net.isDepositEnabled || !chain) throw new DomainError('DEPOSIT_UNAVAILABLE');
    const address = await this.addressOf(userId, chain);
    return { coinCode, network, address, confirmationsRequired: found.net.confirmationsRequired };
  }

  private async addressOf(userId: string, chain: Chain): Promise<string> {
    const [existing] = await this.db
      .select()
      .from(depositAddresses)
      .where(and(eq(depositAddresses.userId, userId), eq(depositAddresses.chain, chain)));
    if (existing) return existing.address;
    return this.db.transaction(async (tx) => {
      const [counter] = await tx
        .insert(hdIndexCounters)
        .values({ chain, nextIndex: 1 })
        .onConflictDoUpdate({
          target: hdIndexCounters.chain,
          set: { nextIndex: sql`${hdIndexCounters.nextIndex} + 1` },
        })
        .returning({ nextIndex: hdIndexCounters.nextIndex });
      const index = counter!.nextIndex - 1;
      const address = deriveAddress(chain, this.options.xpubs[chain], index);
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

  /** Owner of a deposit address on `chain`, if it is one of ours. */
  private async ownerOfAddress(db: DbOrTx, chain: Chain, address: string): Promise<string | undefined> {
    const [row] = await db
      .select({ userId: depositAddresses.userId })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.chain, chain), eq(depositAddresses.address, address)));
    return row?.userId;
  }

  /** For the deposit CLI outside production: the deposit address of the account with `email`. */
  async depositAddressByEmail(email: string, coinCode: AssetCode, network: string): Promise<DepositAddressContent> {
    const userId = await this.options.identity.findUserIdByEmail(email);
    if (!userId) throw new DomainError('NOT_FOUND');
    return this.depositAddress(userId, coinCode, network);
  }

  // ---------------------------------------------------------------- custody webhook

  /**
   * Apply one verified custody delivery (the route checked the HMAC and the timestamp). In one
   * transaction: record the delivery id (a repeat does nothing), then the event.
   *
   * Deposit: refused (nothing recorded) for a disabled coin/network, an unknown address, or a
   * non-positive or over-precise amount. Otherwise the transfer is recorded once per (network,
   * txHash, outputIndex) as PENDING, its confirmations kept at the highest reported, and credited
   * exactly once — one DEPOSIT entry hot wallet → user — when they reach the network's requirement.
   *
   * Withdrawal: moves an OUTER withdrawal to success (with its txHash) or failure (funds returned).
   */
  async handleCustodyDelivery(
    body: ParsedCustodyWebhookBody,
  ): Promise<{ isDuplicateDelivery: boolean; depositId: string | null; status: string | null }> {
    let credited: { userId: string; coinCode: AssetCode; amount: string } | undefined;
    let moved: WithdrawalRow | undefined;
    const result = await this.db.transaction(async (tx) => {
      const [delivery] = await tx
        .insert(custodyDeliveries)
        .values({ deliveryId: body.deliveryId })
        .onConflictDoNothing()
        .returning();
      if (!delivery) return { isDuplicateDelivery: true, depositId: null, status: null };
      const event = body.event;
      if (event.type === 'withdrawal') {
        const id = Number(event.withdrawalId);
        const row =
          event.result === 'success'
            ? await this.completeInTx(tx, id, event.txHash ?? null, null, [0, 1])
            : await this.failInTx(tx, id, event.reason ?? 'reported by custody', null, [0, 1]);
        moved = row;
        return { isDuplicateDelivery: false, depositId: null, status: String(row.status) };
      }
      const recorded = await this.recordDepositInTx(tx, {
        network: event.network,
        coin: event.coin,
        address: event.address,
        txHash: event.txHash,
        outputIndex: event.outputIndex,
        amountMinor: event.amountMinor,
        confirmations: event.confirmations,
        fromAddress: event.fromAddress,
      });
      if (recorded.isCreditedNow) credited = recorded;
      return { isDuplicateDelivery: false, depositId: String(recorded.row.id), status: recorded.row.status };
    });
    if (credited) await this.notifyDepositCredited(credited);
    if (moved) await this.notifyWithdrawal(moved);
    return result;
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
  async recordDepositInTx(tx: Tx, input: ObservedDeposit): Promise<RecordedDeposit> {
    const found = await this.findNetwork(tx, input.coin, input.network);
    const chain = chainOf(input.network);
    if (!found || !found.net.isDepositEnabled || !chain) throw new DomainError('DEPOSIT_UNAVAILABLE');
    const address = normalizeAddress(input.network, input.address) ?? input.address;
    const userId = await this.ownerOfAddress(tx, chain, address);
    if (!userId) throw new DomainError('UNKNOWN_DEPOSIT_ADDRESS');
    const { amountMinor } = input;
    const confirmationsRequired = input.confirmationsRequired ?? found.net.confirmationsRequired;
    const fromAddress = input.fromAddress?.trim() ?? null;
    const [row] = await tx
      .insert(deposits)
      .values({
        createdAt: this.now(),
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
    await this.screenDepositSource(tx, row);
    const final =
      row.status === 'PENDING' && (input.isFinal === true || row.confirmations >= confirmationsRequired)
        ? await this.creditOrFreezeInTx(tx, row)
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
  async recordDepositsInTx(tx: Tx, inputs: readonly ObservedDeposit[]): Promise<RecordedDeposit[]> {
    return recordDepositsInTx(
      tx,
      { now: () => this.now(), screening: this.options.screening, log: this.options.log },
      inputs,
    );
  }

  /** Tell the owner that a deposit was credited (after the commit of `recordDepositInTx`); never throws. */
  async notifyDepositCredited(recorded: Pick<RecordedDeposit, 'userId' | 'coinCode' | 'amount'>): Promise<void> {
    await this.options.notifier
      ?.depositCredited(recorded.userId, recorded.coinCode, recorded.amount)
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'deposit notification failed'));
  }

  /**
   * A PENDING deposit whose transfer is gone (its block left the canonical chain): deleted with
   * its screening alert, in `tx`. True when it was PENDING (nothing was ever posted for it); false
   * when it is credited or frozen, which is never undone here (the caller raises the alarm).
   */
  async dropPendingDepositInTx(tx: Tx, depositId: number): Promise<boolean> {
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
  async depositStatusInTx(tx: Tx, depositId: number): Promise<string | undefined> {
    const [row] = await tx.select({ status: deposits.status }).from(deposits).where(eq(deposits.id, depositId));
    return row?.status;
  }

  /**
   * Deposit addresses on `chain` with an id above `afterId`, in id order, at most `limit` (the chain
   * watcher's address index reads them incrementally).
   */
  async depositAddressesAfter(
    chain: Chain,
    afterId: number,
    limit: number,
  ): Promise<{ id: number; userId: string; address: string }[]> {
    return this.db
      .select({ id: depositAddresses.id, userId: depositAddresses.userId, address: depositAddresses.address })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.chain, chain), sql`${depositAddresses.id} > ${afterId}`))
      .orderBy(asc(depositAddresses.id))
      .limit(limit);
  }

  /** Raise the confirmations shown on PENDING deposits `depositIds` to `confirmations` (never lowers them). */
  async raiseDepositConfirmationsInTx(tx: Tx, depositIds: number[], confirmations: number): Promise<void> {
    if (depositIds.length === 0) return;
    await tx
      .update(deposits)
      .set({ confirmations: sql`GREATEST(${deposits.confirmations}, ${confirmations})` })
      .where(and(inArray(deposits.id, depositIds), eq(deposits.status, 'PENDING')));
  }

  /**
   * Screen a deposit's source: a source on a sanctions list records one alert for the
   * deposit (unique per deposit: a repeated report does not alert again) and is logged without the
   * user being told. The deposit is then frozen instead of credited (`creditOrFreezeInTx`).
   */
  private async screenDepositSource(tx: Tx, row: DepositRow): Promise<void> {
    if (!row.fromAddress || !this.options.screening) return;
    const screening = await this.options.screening.screen(row.network, row.fromAddress);
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
      this.options.log.warn(
        { alert: 'deposit-source-screening-hit', userId: row.userId, depositId: row.id, listName: screening.listName },
        'screening alert: deposit from a sanctioned source frozen for review',
      );
  }

  /**
   * A confirmed deposit: credited to the user, unless its source has a screening alert that is not
   * released — then FROZEN: one DEPOSIT entry hot wallet → SUSPENSE (the coins are accounted for,
   * not the user's to spend) until an operator releases the alert (`releaseScreeningAlert`).
   */
  private async creditOrFreezeInTx(tx: Tx, row: DepositRow): Promise<DepositRow> {
    const alert = await depositAlert(tx, row.id);
    if (!alert || alert.status === 'released') return this.creditInTx(tx, row);
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

  private async creditInTx(tx: Tx, row: DepositRow): Promise<DepositRow> {
    return (await this.creditDepositInTx(tx, row.id, 'PENDING')) ?? row;
  }

  /**
   * Moves deposit `depositId` from `fromStatus` to CREDITED and posts its amount to the user's
   * available balance, once: from the hot wallet for a PENDING deposit, from SUSPENSE for a FROZEN
   * one an operator released. The status claim and the entry's idempotency key make a
   * repeated call change nothing. Undefined when the deposit is not in `fromStatus`.
   */
  private async creditDepositInTx(
    tx: Tx,
    depositId: number,
    fromStatus: 'PENDING' | 'FROZEN',
  ): Promise<DepositRow | undefined> {
    const [claimed] = await tx
      .update(deposits)
      .set({ status: 'CREDITED', creditedAt: this.now() })
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

  // ---------------------------------------------------------------- withdrawals

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
  private async planWithdrawal(userId: string, body: ParsedWithdrawCheckBody, isAddressBookOnly = false) {
    await this.options.identity.assertNotFrozen(userId);
    const found = await this.findKnownNetwork(body.coin, body.network);
    const chain = chainOf(body.network);
    if (!found.coin.isEnabled || !found.net.isWithdrawEnabled || !chain) throw new DomainError('WITHDRAW_UNAVAILABLE');
    const asset = body.coin;
    const address = await this.checkDestination(body.network, body.address, userId, 'withdrawal');
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
    const holdUntil = await this.options.identity.withdrawalHoldUntil(userId);
    if (holdUntil)
      throw new DomainError(
        'SECURITY_HOLD',
        { until: `${holdUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC` },
        { until: holdUntil.toISOString() },
      );
    const recipientUserId = await this.ownerOfAddress(this.db, chain, address);
    if (recipientUserId === userId) throw new FieldError('address', 'validation.withdrawAddressOwn');
    if (isAddressBookOnly && !this.options.isWhitelistMode) {
      // A withdrawal signed with an API key: only to an address-book entry.
      const [entry] = await this.db
        .select({ id: addressBook.id })
        .from(addressBook)
        .where(
          and(eq(addressBook.userId, userId), eq(addressBook.network, body.network), eq(addressBook.address, address)),
        );
      if (!entry) throw new FieldError('address', 'validation.apiKeyAddressBookOnly');
    }
    if (this.options.isWhitelistMode) {
      const [entry] = await this.db
        .select()
        .from(addressBook)
        .where(
          and(
            eq(addressBook.userId, userId),
            eq(addressBook.network, body.network),
            eq(addressBook.address, address),
            lte(addressBook.usableAt, this.now()),
          ),
        );
      if (!entry) throw new FieldError('address', 'validation.withdrawAddressNotWhitelisted');
    }
    const type: 'INTERNAL' | 'OUTER' = recipientUserId ? 'INTERNAL' : 'OUTER';
    const feeMinor = type === 'INTERNAL' ? 0n : found.net.withdrawFeeMinor;
    // Checked again, atomically, by the ledger when the withdrawal posts; here so that a refusal comes before any code is used.
    if ((await accountBalance(this.db, userAccount(userId, 'USER_AVAILABLE', asset))) < amountMinor + feeMinor)
      throw new DomainError('INSUFFICIENT_BALANCE');
    const usdPerCoin = await this.price(asset);
    if (usdPerCoin === null) throw new DomainError('PRICE_UNAVAILABLE');
    const usdCents = usdValueCents(amountMinor, asset, usdPerCoin);
    return { asset, chain, address, amountMinor, feeMinor, type, recipientUserId, usdCents };
  }

  private async limitUsageOf(db: DbOrTx, userId: string) {
    return limitUsage(db, userId, await this.options.identity.kycLevelOf(userId, db), this.now());
  }

  /**
   * The network row of a coin, whether switched on or not.
   * @throws FieldError on `network` (validation.networkRequired) when the coin does not move on it
   *   (a client mistake: "FOO", "trc20", "ERC20 ").
   */
  private async findKnownNetwork(coinCode: string, network: string, field = 'network') {
    const [row] = await this.db
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
  private async checkDestination(
    network: string,
    text: string,
    userId: string,
    kind: 'withdrawal' | 'address_book',
  ): Promise<string> {
    const address = normalizeAddress(network, text);
    if (!address) throw new FieldError('address', 'validation.withdrawAddressInvalid', { network });
    const [blocked] = await this.db
      .select()
      .from(blockedDestinations)
      .where(and(eq(blockedDestinations.network, network), eq(blockedDestinations.address, address)));
    if (blocked) throw new FieldError('address', 'validation.withdrawAddressBlocked', { network });
    const screening = await this.options.screening?.screen(network, address);
    if (screening?.status === 'hit') {
      this.options.log.warn(
        { alert: 'address-screening-hit', userId, network, address, listName: screening.listName },
        'screening alert: sanctioned destination refused',
      );
      await recordAlert(this.db, {
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

  /**
   * `POST wallet/withdraw/check`: the dry run of a withdrawal — the same checks
   * (`planWithdrawal`), nothing recorded, no factor asked. Amounts are decimal strings of the coin.
   * @throws as `requestWithdrawal` minus CONFLICT.
   */
  async checkWithdrawal(
    userId: string,
    body: ParsedWithdrawCheckBody,
    options: WithdrawalOptions = {},
  ): Promise<WithdrawCheckContent> {
    const plan = await this.planWithdrawal(userId, body, options.isAddressBookOnly);
    assertWithinLimits(await this.limitUsageOf(this.db, userId), plan.usdCents);
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
  async requestWithdrawal(
    userId: string,
    body: ParsedWithdrawBody,
    idempotencyKey: string | undefined,
    factors: FactorCheck = NO_FACTORS,
    options: WithdrawalOptions = {},
  ): Promise<WalletRecord> {
    const plan = await this.planWithdrawal(userId, body, options.isAddressBookOnly);
    const { asset, address, amountMinor, feeMinor, type, recipientUserId, usdCents } = plan;
    // Checked again under the user's withdrawal lock below; here so that a refusal comes before any code is checked.
    assertWithinLimits(await this.limitUsageOf(this.db, userId), usdCents);
    // The one-time factors last: a refused or replayed request never uses up a code, and the code is
    // used up in the withdrawal's own transaction (5).
    await factors.check();
    const row = await this.db.transaction(async (tx) => {
      // One withdrawal of a user at a time: the limit is checked against every committed one.
      await lockUserWithdrawals(tx, userId);
      // A freeze that committed since the first check stops the withdrawal too.
      await this.options.identity.assertNotFrozen(userId, tx);
      assertWithinLimits(await this.limitUsageOf(tx, userId), usdCents);
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
          createdAt: this.now(),
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
        await options.settleAnswer?.(tx, this.toWithdrawRecord(w));
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
        createdAt: this.now(),
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
        creditedAt: this.now(),
      });
      await factors.consume(tx);
      await options.settleAnswer?.(tx, this.toWithdrawRecord(w));
      return w;
    });
    // The request itself is a security mail too (it carries a freeze link).
    await this.notifyWithdrawal(row);
    return this.toWithdrawRecord(row);
  }

  /**
   * Move an OUTER withdrawal from one of `from` to `to` — one conditional UPDATE, so a transition
   * happens at most once — and post its entry (if any) in the same transaction.
   * @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when it is not in a `from` state.
   */
  private async transition(
    tx: Tx,
    id: number,
    from: WithdrawStatus[],
    to: WithdrawStatus,
    set: Partial<Pick<WithdrawalRow, 'txHash' | 'failureReason' | 'operatorEmail'>>,
    entryOf: (w: WithdrawalRow) => EntryInput | null,
    ownerId?: string,
  ): Promise<WithdrawalRow> {
    const conditions: SQL[] = [
      eq(withdrawals.id, id),
      eq(withdrawals.type, 'OUTER'),
      inArray(withdrawals.status, from),
    ];
    if (ownerId) conditions.push(eq(withdrawals.userId, ownerId));
    const [moved] = await tx
      .update(withdrawals)
      .set({ ...set, status: to, updatedAt: this.now() })
      .where(and(...conditions))
      .returning();
    if (!moved) {
      const [existing] = await tx
        .select()
        .from(withdrawals)
        .where(ownerId ? and(eq(withdrawals.id, id), eq(withdrawals.userId, ownerId)) : eq(withdrawals.id, id));
      if (!existing) throw new DomainError('NOT_FOUND');
      throw new DomainError('WITHDRAW_STATE_CHANGED', {}, { status: existing.status });
    }
    const entry = entryOf(moved);
    if (entry) await postEntry(tx, entry);
    return moved;
  }

  private returnEntry(w: WithdrawalRow, kindOfReturn: 'cancel' | 'failure'): EntryInput {
    const asset = asAsset(w.coinCode);
    return {
      kind: 'WITHDRAWAL_RETURN',
      reference: `withdrawal:${w.id}`,
      idempotencyKey: `withdrawal:${w.id}:return`,
      postings: transfer(
        userAccount(w.userId, 'USER_FROZEN', asset),
        userAccount(w.userId, 'USER_AVAILABLE', asset),
        w.amountMinor + w.feeMinor,
      ),
      metadata: { reason: kindOfReturn },
    };
  }

  /**
   * Tell the owner a withdrawal changed status, after the change committed. A failed message is
   * logged: the withdrawal itself stands.
   */
  private async notifyWithdrawal(row: WithdrawalRow): Promise<void> {
    await this.options.notifier
      ?.withdrawalStatusChanged(
        row.userId,
        asAsset(row.coinCode),
        toDecimalString(row.amountMinor, asAsset(row.coinCode)),
        row.status as WithdrawStatus,
      )
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'withdrawal notification failed'));
  }

  /**
   * The user cancels a waiting (0) withdrawal: status 4, amount + fee back to available. Allowed
   * for a frozen account: the coins come back into the account, nothing leaves it.
   */
  async cancelWithdrawal(userId: string, id: number): Promise<WalletRecord> {
    const row = await this.db.transaction((tx) =>
      this.transition(tx, id, [0], 4, {}, (w) => this.returnEntry(w, 'cancel'), userId),
    );
    await this.notifyWithdrawal(row);
    return this.toWithdrawRecord(row);
  }

  /**
   * Cancel every waiting (0) withdrawal of `userId` back to available, each through
   * `cancelWithdrawal` (its ledger return entry and message): the freeze link. One that
   * an operator moved on meanwhile is left as it is. @returns how many were cancelled.
   */
  async cancelPendingWithdrawals(userId: string): Promise<number> {
    const waiting = await this.db
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
        await this.cancelWithdrawal(userId, id);
        cancelled += 1;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'WITHDRAW_STATE_CHANGED') throw error;
      }
    }
    return cancelled;
  }

  /**
   * Whether a withdrawal is large: OUTER and its USD value at request time over
   * LARGE_WITHDRAWAL_USD. A row without a USD value (made before values were stored) is not.
   */
  private isLarge(row: WithdrawalRow): boolean {
    if (row.type !== 'OUTER' || row.usdValue === null) return false;
    return new Decimal(row.usdValue).gt(this.options.largeWithdrawalUsd ?? LARGE_WITHDRAWAL_USD_DEFAULT);
  }

  /**
   * Operator (admin module): the second approval of a large waiting withdrawal; nothing
   * moves. The approver's email and the time are kept on the row; a different operator must then
   * process it (`processWithdrawal`). Conditional on the row being waiting and unapproved, under
   * the row's lock, so it is approved once.
   * @throws DomainError NOT_FOUND; WITHDRAW_STATE_CHANGED (138, content `{ status, approvedBy,
   *   needsSecondApproval }`) when it is not waiting, is already approved, or is not large.
   */
  async approveWithdrawal(operatorEmail: string, id: number): Promise<OpsWithdrawal> {
    const row = await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), eq(withdrawals.type, 'OUTER')))
        .for('update');
      if (!current) throw new DomainError('NOT_FOUND');
      if (current.status !== 0 || current.approvedBy !== null || !this.isLarge(current)) {
        throw new DomainError(
          'WITHDRAW_STATE_CHANGED',
          {},
          { status: current.status, approvedBy: current.approvedBy, needsSecondApproval: this.isLarge(current) },
        );
      }
      const [approved] = await tx
        .update(withdrawals)
        .set({ approvedBy: operatorEmail, approvedAt: this.now(), updatedAt: this.now() })
        .where(eq(withdrawals.id, id))
        .returning();
      return approved!;
    });
    return this.toOpsWithdrawal(row);
  }

  /**
   * Operator (admin module): 0 waiting → 1 processing (no money moves); `operatorEmail` is kept on
   * the row for the audit trail. A large withdrawal must have been approved first, by a
   * different operator: the row is locked (`FOR UPDATE`) while that is checked, so an approval
   * cannot slip in between.
   * @throws DomainError NOT_FOUND; WITHDRAW_STATE_CHANGED (138) when not waiting;
   *   SECOND_APPROVAL_REQUIRED (155) when large and not approved; FOUR_EYES_REQUIRED (153) when
   *   `operatorEmail` gave the approval.
   */
  async processWithdrawal(operatorEmail: string, id: number): Promise<OpsWithdrawal> {
    const row = await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), eq(withdrawals.type, 'OUTER')))
        .for('update');
      if (current && current.status === 0 && this.isLarge(current)) {
        if (current.approvedBy === null) throw new DomainError('SECOND_APPROVAL_REQUIRED');
        if (current.approvedBy === operatorEmail) throw new DomainError('FOUR_EYES_REQUIRED');
      }
      return this.transition(tx, id, [0], 1, { operatorEmail }, () => null);
    });
    await this.notifyWithdrawal(row);
    return this.toOpsWithdrawal(row);
  }

  /**
   * Operator (admin module): 1 processing → 2 success with the chain's txHash; the frozen amount
   * leaves to the hot wallet, the fee is earned. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when not processing.
   */
  async completeWithdrawal(operatorEmail: string, id: number, txHash: string): Promise<OpsWithdrawal> {
    const row = await this.db.transaction((tx) => this.completeInTx(tx, id, txHash, operatorEmail, [1]));
    await this.notifyWithdrawal(row);
    return this.toOpsWithdrawal(row);
  }

  /**
   * Operator (admin module): 0 or 1 → 3 failure; amount + fee back to available.
   * @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when already settled.
   */
  async failWithdrawal(operatorEmail: string, id: number, reason: string): Promise<OpsWithdrawal> {
    const row = await this.db.transaction((tx) => this.failInTx(tx, id, reason, operatorEmail, [0, 1]));
    await this.notifyWithdrawal(row);
    return this.toOpsWithdrawal(row);
  }

  private async completeInTx(
    tx: Tx,
    id: number,
    txHash: string | null,
    operatorEmail: string | null,
    from: WithdrawStatus[],
  ): Promise<WithdrawalRow> {
    return this.transition(tx, id, from, 2, { txHash, ...(operatorEmail ? { operatorEmail } : {}) }, (w) => {
      const asset = asAsset(w.coinCode);
      const frozen = userAccount(w.userId, 'USER_FROZEN', asset);
      const postings = [
        { account: frozen, amountMinor: -(w.amountMinor + w.feeMinor) },
        { account: platformAccount('PLATFORM_HOT_WALLET', asset), amountMinor: w.amountMinor },
      ];
      if (w.feeMinor > 0n) postings.push({ account: platformAccount('PLATFORM_FEES', asset), amountMinor: w.feeMinor });
      return {
        kind: 'WITHDRAWAL_SETTLE',
        reference: `withdrawal:${w.id}`,
        idempotencyKey: `withdrawal:${w.id}:settle`,
        postings,
        metadata: { txHash: txHash ?? '' },
      };
    });
  }

  private async failInTx(
    tx: Tx,
    id: number,
    reason: string,
    operatorEmail: string | null,
    from: WithdrawStatus[],
  ): Promise<WithdrawalRow> {
    return this.transition(
      tx,
      id,
      from,
      3,
      { failureReason: reason, ...(operatorEmail ? { operatorEmail } : {}) },
      (w) => this.returnEntry(w, 'failure'),
    );
  }

  /** Operator list of withdrawals, newest first, optionally of one status. */
  async listForOperators(query: { pageID: number; pageSize: number; status?: number }): Promise<Page<OpsWithdrawal>> {
    const where = query.status === undefined ? undefined : eq(withdrawals.status, query.status);
    const [total] = await this.db.select({ n: count() }).from(withdrawals).where(where);
    const rows = await this.db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => this.toOpsWithdrawal(row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * Operators: deposits, newest first (by id), optionally of one status
   * (`pending` | `credited` | `frozen`) and one coin, one page. Amounts are decimal strings in the
   * coin's units. The owner is a user id only: the caller adds what it needs of the user.
   */
  async listDepositsForOperators(query: {
    pageID: number;
    pageSize: number;
    status?: OpsDepositStatus | undefined;
    coinCode?: AssetCode | undefined;
  }): Promise<Page<OpsDepositRow>> {
    const filters: SQL[] = [];
    if (query.status !== undefined) filters.push(eq(deposits.status, query.status.toUpperCase()));
    if (query.coinCode !== undefined) filters.push(eq(deposits.coinCode, query.coinCode));
    const where = filters.length > 0 ? and(...filters) : undefined;
    const [total] = await this.db.select({ n: count() }).from(deposits).where(where);
    const rows = await this.db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(desc(deposits.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => toOpsDepositRow(row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  private toWithdrawRecord(row: WithdrawalRow): WalletRecord {
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

  private toOpsWithdrawal(row: WithdrawalRow): OpsWithdrawal {
    return {
      ...this.toWithdrawRecord(row),
      userId: row.userId,
      failureReason: row.failureReason,
      operatorEmail: row.operatorEmail,
      usdValue: row.usdValue,
      needsSecondApproval: this.isLarge(row),
      approvedBy: row.approvedBy,
    };
  }

  private toDepositRecord(row: DepositRow): WalletRecord {
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

  // ---------------------------------------------------------------- limits and screening

  /** `GET wallet/withdraw/limits`: the caller's level, and limit, used and left of each window (USD). */
  async withdrawLimits(userId: string): Promise<WithdrawLimitsContent> {
    return toLimitsContent(await this.limitUsageOf(this.db, userId));
  }

  /** Operators: every level's limits. */
  async listWithdrawalLimits(): Promise<OpsWithdrawalLimit[]> {
    return listLimits(this.db);
  }

  /** Operators (admin): set one level's limits (USD cents); audited in `withdrawal_limit_changes`. */
  async setWithdrawalLimit(
    operatorEmail: string,
    level: number,
    limits: LevelLimitsCents,
  ): Promise<OpsWithdrawalLimit> {
    return setLimits(this.db, operatorEmail, level, limits, this.now());
  }

  /** Operators: screening alerts, oldest first, optionally of one status. */
  async listScreeningAlerts(query: { pageID: number; pageSize: number; status?: ScreeningAlertStatus | undefined }) {
    return listAlerts(this.db, query);
  }

  /**
   * Operators (compliance, admin): release an open alert — the hit was a false positive. A deposit
   * already FROZEN is credited in the same transaction (SUSPENSE → the user's available balance,
   * once: the deposit moves FROZEN → CREDITED with one conditional UPDATE); a deposit still waiting
   * for confirmations is credited when they arrive. The user is told of the credit.
   * @throws DomainError NOT_FOUND; SCREENING_ALERT_STATE_CHANGED (151) when already decided.
   */
  async releaseScreeningAlert(operatorEmail: string, id: number, note: string | null): Promise<ScreeningAlert> {
    let credited: DepositRow | undefined;
    const alert = await this.db.transaction(async (tx) => {
      const decided = await decideAlert(tx, id, 'released', operatorEmail, note, this.now());
      if (decided.kind === 'deposit' && decided.referenceId !== null)
        credited = await this.releaseFrozenDepositInTx(tx, Number(decided.referenceId));
      return decided;
    });
    if (credited) {
      const asset = asAsset(credited.coinCode);
      await this.options.notifier
        ?.depositCredited(credited.userId, asset, toDecimalString(credited.amountMinor, asset))
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'deposit notification failed'));
    }
    return toScreeningAlert(alert);
  }

  /**
   * Operators (compliance, admin): confirm an open alert — the hit stands; a deposit stays frozen in
   * SUSPENSE (or is frozen when its confirmations arrive). `note` says why.
   * @throws DomainError NOT_FOUND; SCREENING_ALERT_STATE_CHANGED (151) when already decided.
   */
  async confirmScreeningAlert(operatorEmail: string, id: number, note: string): Promise<ScreeningAlert> {
    const alert = await this.db.transaction((tx) => decideAlert(tx, id, 'confirmed', operatorEmail, note, this.now()));
    return toScreeningAlert(alert);
  }

  /** FROZEN → CREDITED and SUSPENSE → user, once; undefined when the deposit is not frozen. */
  private releaseFrozenDepositInTx(tx: Tx, depositId: number): Promise<DepositRow | undefined> {
    return this.creditDepositInTx(tx, depositId, 'FROZEN');
  }

  // ---------------------------------------------------------------- history

  /** `GET wallet/record`: the user's deposits or withdrawals, newest first, filtered and paged. */
  async records(userId: string, query: WalletRecordQuery): Promise<Page<WalletRecord>> {
    const offset = (query.pageID - 1) * query.pageSize;
    const [from, to] = query.createTime ?? [];
    if (query.action === 'exchange_in' || query.action === 'exchange_out')
      return this.swapLegRecords(userId, query, offset);
    if (query.action === 'withdraw') {
      const conditions: SQL[] = [eq(withdrawals.userId, userId)];
      if (query.coin) conditions.push(eq(withdrawals.coinCode, query.coin));
      if (query.status !== undefined) conditions.push(eq(withdrawals.status, query.status));
      if (query.type) conditions.push(eq(withdrawals.type, query.type));
      if (from && to)
        conditions.push(gte(withdrawals.createdAt, new Date(from)), lte(withdrawals.createdAt, new Date(to)));
      const [total] = await this.reads
        .select({ n: count() })
        .from(withdrawals)
        .where(and(...conditions));
      const rows = await this.reads
        .select()
        .from(withdrawals)
        .where(and(...conditions))
        .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
        .limit(query.pageSize)
        .offset(offset);
      const totalCount = Number(total?.n ?? 0);
      return {
        list: rows.map((row) => this.toWithdrawRecord(row)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalCount,
        totalPage: totalPages(totalCount, query.pageSize),
      };
    }
    const conditions: SQL[] = [eq(deposits.userId, userId)];
    if (query.coin) conditions.push(eq(deposits.coinCode, query.coin));
    if (query.status !== undefined)
      conditions.push(
        query.status === WITHDRAW_STATUS.SUCCESS
          ? eq(deposits.status, 'CREDITED')
          : inArray(deposits.status, ['PENDING', 'FROZEN']),
      );
    if (query.type) conditions.push(eq(deposits.type, query.type));
    if (from && to) conditions.push(gte(deposits.createdAt, new Date(from)), lte(deposits.createdAt, new Date(to)));
    const [total] = await this.reads
      .select({ n: count() })
      .from(deposits)
      .where(and(...conditions));
    const rows = await this.reads
      .select()
      .from(deposits)
      .where(and(...conditions))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(query.pageSize)
      .offset(offset);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => this.toDepositRecord(row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * Swap legs of the wallet record, read from the ledger: EXCHANGE_SWAP credits of the user's
   * available balance are `exchange_in`, debits `exchange_out`. A swap is done when it exists, so
   * a status filter other than 2 (success) or a type filter of OUTER matches nothing.
   */
  private async swapLegRecords(userId: string, query: WalletRecordQuery, offset: number): Promise<Page<WalletRecord>> {
    const action = query.action as 'exchange_in' | 'exchange_out';
    const empty = { list: [], pageID: query.pageID, pageSize: query.pageSize, totalCount: 0, totalPage: 0 };
    if ((query.status !== undefined && query.status !== WITHDRAW_STATUS.SUCCESS) || query.type === 'OUTER')
      return empty;
    const [from, to] = query.createTime ?? [];
    const { items, totalCount } = await userPostingsPage(this.reads, userId, {
      type: 'USER_AVAILABLE',
      kind: 'EXCHANGE_SWAP',
      side: action === 'exchange_in' ? 'credit' : 'debit',
      ...(query.coin ? { asset: query.coin } : {}),
      ...(from && to ? { createdFrom: new Date(from), createdTo: new Date(to) } : {}),
      limit: query.pageSize,
      offset,
    });
    const list = items.map((item): WalletRecord => ({
      id: String(item.entryId),
      action,
      coinCode: item.asset,
      network: '',
      address: '',
      amount: toDecimalString(item.amountMinor < 0n ? -item.amountMinor : item.amountMinor, item.asset),
      fee: toDecimalString(0n, item.asset),
      type: 'INTERNAL',
      status: WITHDRAW_STATUS.SUCCESS,
      txHash: null,
      confirmations: null,
      createTime: item.createdAt.toISOString(),
    }));
    return {
      list,
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  // ---------------------------------------------------------------- balances

  /**
   * Balances per coin (available and frozen) with USD values, for `wallet/balance`,
   * `account/balance` and `wallet/overview`. Every enabled coin is listed, zero when untouched.
   * Fund and card accounts are totalled from the ledger's USER_FUND (+ USER_FUND_FIXED, USER_FUND_FROZEN) and USER_CARD accounts,
   * the trust account from what the user's BTC trusts hold (`trustHoldings`).
   */
  async balances(userId: string): Promise<BalanceContent> {
    const enabled = (await this.listCoins()).map((coin) => coin.coinCode);
    const ledger = await userBalances(this.db, userId);
    const amountOf = (type: string, asset: AssetCode) =>
      ledger.find((b) => b.type === type && b.asset === asset)?.balanceMinor ?? 0n;
    const assetsInLedger = [...new Set([...enabled, ...ledger.map((b) => b.asset)])];
    const prices = new Map<AssetCode, string | null>();
    await Promise.all(assetsInLedger.map(async (asset) => prices.set(asset, await this.price(asset))));
    const sum = (values: (string | null)[]) =>
      values.reduce((total, value) => total.plus(value ?? 0), new Decimal(0)).toFixed(2);
    const mainAssets = enabled.flatMap((asset) =>
      (['available', 'frozen'] as const).map((type) => {
        const minor = amountOf(type === 'available' ? 'USER_AVAILABLE' : 'USER_FROZEN', asset);
        return {
          coinCode: asset,
          type,
          amount: toDecimalString(minor, asset),
          convert: usdValue(minor, asset, prices.get(asset) ?? null),
        };
      }),
    );
    const accountOf = (
      accountType: 'FundAccount' | 'CardAccount' | 'TrustAccount',
      byAsset: Map<AssetCode, bigint>,
    ) => {
      const assets = [...byAsset]
        .filter(([, minor]) => minor !== 0n)
        .map(([asset, minor]) => ({
          coinCode: asset,
          type: 'available' as const,
          amount: toDecimalString(minor, asset),
          convert: usdValue(minor, asset, prices.get(asset) ?? null),
        }));
      return { accountType, totalUsd: sum(assets.map((a) => a.convert)), assets };
    };
    const ledgerAccount = (accountType: 'FundAccount', ledgerTypes: readonly string[]) => {
      // One line per asset, summed over the account's ledger types (funds: current shares, fixed
      // principal and shares frozen for an outgoing wire).
      const byAsset = new Map<AssetCode, bigint>();
      for (const b of ledger)
        if (ledgerTypes.includes(b.type)) byAsset.set(b.asset, (byAsset.get(b.asset) ?? 0n) + b.balanceMinor);
      return accountOf(accountType, byAsset);
    };
    const trustHeld = (await this.options.trustHoldings?.heldMinorByAsset(userId)) ?? new Map<AssetCode, bigint>();
    for (const asset of trustHeld.keys()) if (!prices.has(asset)) prices.set(asset, await this.price(asset));
    const cardHeld = (await this.options.cardHoldings?.heldMinorByAsset(userId)) ?? new Map<AssetCode, bigint>();
    for (const asset of cardHeld.keys())
      if ((prices.get(asset) ?? null) === null)
        prices.set(asset, (await this.options.cardHoldings?.usdPerUnit(asset)) ?? null);
    const cardAccount = () => {
      const byAsset = new Map(cardHeld);
      for (const b of ledger)
        if (b.type === 'USER_CARD') byAsset.set(b.asset, (byAsset.get(b.asset) ?? 0n) + b.balanceMinor);
      return accountOf('CardAccount', byAsset);
    };
    const accounts: BalanceContent['wallet']['accounts'] = [
      { accountType: 'MainAccount' as const, totalUsd: sum(mainAssets.map((a) => a.convert)), assets: mainAssets },
      ledgerAccount('FundAccount', ['USER_FUND', 'USER_FUND_FIXED', 'USER_FUND_FROZEN']),
      cardAccount(),
      accountOf('TrustAccount', trustHeld),
    ];
    if (this.options.loanHoldings) {
      // Collateral (pledged BTC, `frozen`) and debt (negative amounts): the account's total is their net.
      const { collateralMinor, debts } = await this.options.loanHoldings.holdingsOf(userId);
      for (const asset of ['BTC' as AssetCode, ...debts.map((debt) => debt.coin)])
        if (!prices.has(asset)) prices.set(asset, await this.price(asset));
      const assets = [
        ...(collateralMinor > 0n
          ? [
              {
                coinCode: 'BTC' as AssetCode,
                type: 'frozen' as const,
                amount: toDecimalString(collateralMinor, 'BTC'),
                convert: usdValue(collateralMinor, 'BTC', prices.get('BTC') ?? null),
              },
            ]
          : []),
        ...debts
          .filter((debt) => debt.debtMinor !== 0n)
          .map((debt) => ({
            coinCode: debt.coin,
            type: 'available' as const,
            amount: toDecimalString(-debt.debtMinor, debt.coin),
            convert: usdValue(-debt.debtMinor, debt.coin, prices.get(debt.coin) ?? null),
          })),
      ];
      accounts.push({ accountType: 'LoanAccount' as const, totalUsd: sum(assets.map((a) => a.convert)), assets });
    }
    return {
      overview: {
        totalUsd: sum(accounts.map((a) => a.totalUsd)),
        accounts: accounts.map(({ accountType, totalUsd }) => ({ accountType, totalUsd })),
      },
      wallet: { accounts },
    };
  }

  private async price(asset: AssetCode): Promise<string | null> {
    // EURE is EUR e-money (1 EURE = 1 EUR): valued at the EUR rate the cards' top-ups use, so the
    // wallet and the card account agree on what a euro is worth.
    if (asset === 'EURE') return (await this.options.cardHoldings?.usdPerUnit('EUR').catch(() => null)) ?? null;
    const quoted = await this.options.prices.usdPerCoin(asset).catch(() => null);
    if (quoted !== null) return quoted;
    // USD (fund shares) is the unit itself.
    return STABLECOINS.includes(asset) || asset === 'USD' ? '1' : null;
  }

  // ---------------------------------------------------------------- address book

  /** The user's saved withdrawal addresses, newest first (at most 200). */
  async listAddressBook(userId: string): Promise<AddressBookEntry[]> {
    const rows = await this.db
      .select()
      .from(addressBook)
      .where(eq(addressBook.userId, userId))
      .orderBy(desc(addressBook.id))
      .limit(200);
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      network: row.network,
      address: row.address,
      createTime: row.createdAt.toISOString(),
      usableAt: row.usableAt.toISOString(),
    }));
  }

  /**
   * Save an address (the route ran the WITHDRAW_ADDRESS_ADD check). Usable for whitelisted
   * withdrawals 24 hours later; the user is told of every addition.
   * @throws FieldError on `network` (unknown) and `address` (invalid, burn/contract destination, duplicate).
   */
  async addAddress(
    userId: string,
    input: { label: string; network: string; address: string },
    factors: FactorCheck = NO_FACTORS,
  ): Promise<AddressBookEntry> {
    if (!chainOf(input.network)) throw new FieldError('network', 'validation.networkRequired');
    const address = await this.checkDestination(input.network, input.address, userId, 'address_book');
    const [duplicate] = await this.db
      .select({ id: addressBook.id })
      .from(addressBook)
      .where(
        and(eq(addressBook.userId, userId), eq(addressBook.network, input.network), eq(addressBook.address, address)),
      );
    if (duplicate) throw new FieldError('address', 'validation.addressBookDuplicate');
    await factors.check();
    const now = this.now();
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(addressBook)
        .values({
          userId,
          network: input.network,
          address,
          label: input.label,
          createdAt: now,
          usableAt: new Date(now.getTime() + WHITELIST_DELAY_MS),
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new FieldError('address', 'validation.addressBookDuplicate');
      await factors.consume(tx);
      return inserted;
    });
    await this.options.notifier
      ?.addressAdded(userId, row.label, row.network, row.address)
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'address-book notification failed'));
    return {
      id: row.id,
      label: row.label,
      network: row.network,
      address: row.address,
      createTime: row.createdAt.toISOString(),
      usableAt: row.usableAt.toISOString(),
    };
  }

  /** @throws DomainError NOT_FOUND when the entry is not the user's. */
  async deleteAddress(userId: string, id: number): Promise<void> {
    const deleted = await this.db
      .delete(addressBook)
      .where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)))
      .returning({ id: addressBook.id });
    if (deleted.length === 0) throw new DomainError('NOT_FOUND');
  }

  // ---------------------------------------------------------------- back office

  /**
   * The wallet's review queues for the back-office dashboard: OUTER withdrawals waiting for an
   * operator (status 0) and open screening alerts, each with its size and oldest item.
   */
  async operatorQueues(): Promise<{
    withdrawals: OperatorQueueSize;
    largeWithdrawals: OperatorQueueSize;
    screeningAlerts: OperatorQueueSize;
  }> {
    const [waiting] = await this.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${withdrawals.createdAt})` })
      .from(withdrawals)
      .where(and(eq(withdrawals.type, 'OUTER'), eq(withdrawals.status, WITHDRAW_STATUS.WAITING)));
    const largeUsd = this.options.largeWithdrawalUsd ?? LARGE_WITHDRAWAL_USD_DEFAULT;
    const [large] = await this.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${withdrawals.createdAt})` })
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.type, 'OUTER'),
          eq(withdrawals.status, WITHDRAW_STATUS.WAITING),
          isNull(withdrawals.approvedBy),
          sql`${withdrawals.usdValue} > ${largeUsd}::numeric`,
        ),
      );
    const [alerts] = await this.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${screeningAlerts.createdAt})` })
      .from(screeningAlerts)
      .where(eq(screeningAlerts.status, 'open'));
    const asQueue = (row: { size: number; oldestAt: Date | string | null } | undefined): OperatorQueueSize => ({
      size: Number(row?.size ?? 0),
      oldestAt: row?.oldestAt ? new Date(row.oldestAt) : null,
    });
    return { withdrawals: asQueue(waiting), largeWithdrawals: asQueue(large), screeningAlerts: asQueue(alerts) };
  }

  /**
   * Deposits credited and withdrawals requested (any status but cancelled) in [`from`, `to`), per
   * asset: count and amount in minor units (withdrawals without their fee). For the dashboard's day.
   */
  async flowTotalsBetween(from: Date, to: Date): Promise<WalletFlowTotal[]> {
    const depositRows = await this.db
      .select({
        asset: deposits.coinCode,
        count: count(),
        amountMinor: sql<string>`sum(${deposits.amountMinor})::text`,
      })
      .from(deposits)
      .where(and(eq(deposits.status, 'CREDITED'), gte(deposits.creditedAt, from), sql`${deposits.creditedAt} < ${to}`))
      .groupBy(deposits.coinCode)
      .orderBy(asc(deposits.coinCode));
    const withdrawalRows = await this.db
      .select({
        asset: withdrawals.coinCode,
        count: count(),
        amountMinor: sql<string>`sum(${withdrawals.amountMinor})::text`,
      })
      .from(withdrawals)
      .where(
        and(
          sql`${withdrawals.status} <> ${WITHDRAW_STATUS.CANCEL}`,
          gte(withdrawals.createdAt, from),
          sql`${withdrawals.createdAt} < ${to}`,
        ),
      )
      .groupBy(withdrawals.coinCode)
      .orderBy(asc(withdrawals.coinCode));
    return [
      ...depositRows.map((row) => ({
        kind: 'deposits' as const,
        ...row,
        count: Number(row.count),
        amountMinor: BigInt(row.amountMinor),
      })),
      ...withdrawalRows.map((row) => ({
        kind: 'withdrawals' as const,
        ...row,
        count: Number(row.count),
        amountMinor: BigInt(row.amountMinor),
      })),
    ];
  }

  /** The user's latest deposits and withdrawals (at most `limit` of each), newest first, for the back office's user page. */
  async recentActivityOf(userId: string, limit: number): Promise<WalletActivityItem[]> {
    const depositRows = await this.db
      .select()
      .from(deposits)
      .where(eq(deposits.userId, userId))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(limit);
    const withdrawalRows = await this.db
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.userId, userId))
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(limit);
    const items: WalletActivityItem[] = [
      ...depositRows.map((row) => ({
        at: row.creditedAt ?? row.createdAt,
        kind: row.type === 'INTERNAL' ? ('internalDeposit' as const) : ('deposit' as const),
        asset: row.coinCode,
        amountMinor: row.amountMinor,
        status: row.status.toLowerCase(),
      })),
      ...withdrawalRows.map((row) => ({
        at: row.createdAt,
        kind: row.type === 'INTERNAL' ? ('internalWithdrawal' as const) : ('withdrawal' as const),
        asset: row.coinCode,
        amountMinor: row.amountMinor,
        status: WITHDRAW_STATUS_NAMES[row.status as WithdrawStatus] ?? String(row.status),
      })),
    ];
    return items.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
  }
}
