import type {
  OpsNetworkSetting,
  OpsPairSetting,
  SettingChange,
  SettingChangeStatus,
  SettingTargetKind,
  UpdateNetworkSettingBody,
  UpdatePairSettingBody,
} from '@meridian/contracts/back-office-settings';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import {
  AmountParseError,
  type AssetCode,
  ASSET_PRECISION,
  parseAmountMinor,
  toDecimalString,
} from '@meridian/contracts/money';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { ExchangeService, PairSettingsRow } from '../exchange/exchange.service.ts';
import type { NetworkSettings, WalletService } from '../wallet/wallet.service.ts';
import type { ActingOperator } from './admin.adjustments.ts';
import { settingChanges } from './admin.settings.tables.ts';

type ChangeRow = typeof settingChanges.$inferSelect;

/** Lock namespace of the per-setting lock (first key of a two-key advisory lock). */
const SETTING_LOCK_NAMESPACE = 0x5354; // "ST"

/**
 * Serialise every change of one network or pair (a direct update, an approval) until `tx` ends: a
 * transaction-scoped advisory lock, so the next change reads the committed result of the one
 * before it. Two different targets never wait for each other.
 */
async function lockSettingTarget(tx: DbOrTx, targetKind: SettingTargetKind, targetKey: string): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${SETTING_LOCK_NAMESPACE}, hashtext(${`${targetKind}:${targetKey}`}))`,
  );
}

/** What the settings need from the wallet module (its service satisfies this). */
export type SettingsWallet = Pick<WalletService, 'listNetworkSettings' | 'networkSettings' | 'updateNetworkSettings'>;
/** What the settings need from the exchange module (its service satisfies this). */
export type SettingsExchange = Pick<ExchangeService, 'listPairSettings' | 'updatePairSettings'>;

/**
 * Read a wire amount (decimal string of `asset`, zero allowed) as minor units.
 * @throws FieldError on `field`: `validation.amountPrecision` with `{ decimals }` (too many
 *   decimals), `validation.amount` (malformed or out of range).
 */
export function parseSettingAmountMinor(text: string, asset: AssetCode, field: string): bigint {
  try {
    return parseAmountMinor(text, asset);
  } catch (error) {
    if (!(error instanceof AmountParseError)) throw error;
    if (error.reason === 'precision')
      throw new FieldError(field, 'validation.amountPrecision', { decimals: ASSET_PRECISION[asset] });
    throw new FieldError(field, 'validation.amount');
  }
}

/** The contract's view of a network's settings: amounts as decimal strings of the coin. */
export function toOpsNetworkSetting(row: NetworkSettings): OpsNetworkSetting {
  return {
    coinCode: row.coinCode,
    network: row.network,
    isCoinEnabled: row.isCoinEnabled,
    isDepositEnabled: row.isDepositEnabled,
    isWithdrawEnabled: row.isWithdrawEnabled,
    withdrawMin: toDecimalString(row.withdrawMinMinor, row.coinCode),
    withdrawMax: toDecimalString(row.withdrawMaxMinor, row.coinCode),
    withdrawFee: toDecimalString(row.withdrawFeeMinor, row.coinCode),
    confirmationsRequired: row.confirmationsRequired,
  };
}

/** The contract's view of a pair's settings: `from` limits as decimal strings of the `from` coin. */
export function toOpsPairSetting(row: PairSettingsRow): OpsPairSetting {
  return {
    pair: row.pair,
    from: row.from,
    to: row.to,
    isEnabled: row.isEnabled,
    spreadBps: row.spreadBps,
    fromMin: toDecimalString(row.fromMinMinor, row.from),
    fromMax: toDecimalString(row.fromMaxMinor, row.from),
  };
}

function isMarketCoin(code: string): code is MarketCoinCode {
  return (MARKET_COIN_CODES as readonly string[]).includes(code);
}

/** `FROM/TO` of two market coins, or NOT_FOUND. */
function parsePair(key: string): { from: MarketCoinCode; to: MarketCoinCode } {
  const [from, to, ...rest] = key.split('/');
  if (rest.length > 0 || !from || !to || from === to || !isMarketCoin(from) || !isMarketCoin(to))
    throw new DomainError('NOT_FOUND');
  return { from, to };
}

/**
 * Products and settings of the back office: coin networks (wallet module) and swap pairs
 * (exchange module), read and changed through their services (this module never reads their
 * tables). Switches, limits and confirmations apply at once; a fee or spread change is stored in
 * `setting_changes` as proposed and applied only when a different admin approves it (four eyes).
 * The routes note before/after for the audit log (`admin.settings.routes.ts`).
 */
export class ProductSettings {
  constructor(
    private readonly db: Db,
    private readonly wallet: SettingsWallet,
    private readonly exchange: SettingsExchange,
    /** The app's clock. */
    private readonly now: () => Date,
  ) {}

  /** Every coin network's settings (contract view). */
  async listNetworks(): Promise<OpsNetworkSetting[]> {
    return (await this.wallet.listNetworkSettings()).map(toOpsNetworkSetting);
  }

  /** Every swap pair's settings (contract view). */
  async listPairs(): Promise<OpsPairSetting[]> {
    return (await this.exchange.listPairSettings()).map(toOpsPairSetting);
  }

  /** Settings changes, newest first, optionally of one status (at most 200). */
  async listChanges(query: { status?: SettingChangeStatus | undefined }): Promise<SettingChange[]> {
    const rows = await this.db
      .select()
      .from(settingChanges)
      .where(query.status === undefined ? undefined : eq(settingChanges.status, query.status))
      .orderBy(desc(settingChanges.id))
      .limit(200);
    return rows.map(toSettingChange);
  }

  /**
   * Change a network: switches, limits (decimal strings of the coin) and confirmations at once; a
   * fee that differs from the current one is proposed (answered in `proposed`), not applied.
   * @throws DomainError NOT_FOUND (the coin does not move on the network); FieldError (120) on
   *   `withdrawMin` / `withdrawMax` / `withdrawFee` (too many decimals, malformed) or `withdrawMin`
   *   (`validation.minAboveMax`: min above max, after the change) — nothing changes then.
   */
  async updateNetwork(
    operator: ActingOperator,
    coinCode: AssetCode,
    network: string,
    body: UpdateNetworkSettingBody,
  ): Promise<{ before: OpsNetworkSetting; setting: OpsNetworkSetting; proposed: SettingChange[] }> {
    const read = (text: string | undefined, field: string) =>
      text === undefined ? undefined : parseSettingAmountMinor(text, coinCode, field);
    const withdrawMinMinor = read(body.withdrawMin, 'withdrawMin');
    const withdrawMaxMinor = read(body.withdrawMax, 'withdrawMax');
    const withdrawFeeMinor = read(body.withdrawFee, 'withdrawFee');
    return this.db.transaction(async (tx) => {
      // Read under the target's lock: min ≤ max is checked against what the update will change.
      await lockSettingTarget(tx, 'network', `${coinCode}/${network}`);
      const current = await this.wallet.networkSettings(coinCode, network, tx);
      if (!current) throw new DomainError('NOT_FOUND');
      if ((withdrawMinMinor ?? current.withdrawMinMinor) > (withdrawMaxMinor ?? current.withdrawMaxMinor))
        throw new FieldError('withdrawMin', 'validation.minAboveMax');
      const updated = await this.wallet.updateNetworkSettings(
        coinCode,
        network,
        {
          isDepositEnabled: body.isDepositEnabled,
          isWithdrawEnabled: body.isWithdrawEnabled,
          withdrawMinMinor,
          withdrawMaxMinor,
          confirmationsRequired: body.confirmationsRequired,
        },
        tx,
      );
      const proposed: SettingChange[] = [];
      if (withdrawFeeMinor !== undefined && withdrawFeeMinor !== current.withdrawFeeMinor)
        proposed.push(
          await this.propose(tx, operator, {
            targetKind: 'network',
            targetKey: `${coinCode}/${network}`,
            field: 'withdrawFee',
            before: toDecimalString(current.withdrawFeeMinor, coinCode),
            after: toDecimalString(withdrawFeeMinor, coinCode),
          }),
        );
      return { before: toOpsNetworkSetting(current), setting: toOpsNetworkSetting(updated!), proposed };
    });
  }

  /**
   * Change a pair (`FROM/TO`): switch and `from` limits (decimal strings of the `from` coin) at
   * once; a spread that differs from the current one is proposed, not applied.
   * @throws DomainError NOT_FOUND (not a pair of two market coins); FieldError (120) on `fromMin` /
   *   `fromMax` (decimals) or `fromMin` (`validation.minAboveMax`) — nothing changes then.
   */
  async updatePair(
    operator: ActingOperator,
    pair: string,
    body: UpdatePairSettingBody,
  ): Promise<{ before: OpsPairSetting; setting: OpsPairSetting; proposed: SettingChange[] }> {
    const { from, to } = parsePair(pair);
    const read = (text: string | undefined, field: string) =>
      text === undefined ? undefined : parseSettingAmountMinor(text, from, field);
    const fromMinMinor = read(body.fromMin, 'fromMin');
    const fromMaxMinor = read(body.fromMax, 'fromMax');
    return this.db.transaction(async (tx) => {
      // Read under the target's lock: min ≤ max is checked against what the update will change.
      await lockSettingTarget(tx, 'pair', pair);
      const current = (await this.exchange.listPairSettings(tx)).find((row) => row.pair === pair);
      if (!current) throw new DomainError('NOT_FOUND');
      if ((fromMinMinor ?? current.fromMinMinor) > (fromMaxMinor ?? current.fromMaxMinor))
        throw new FieldError('fromMin', 'validation.minAboveMax');
      const updated = await this.exchange.updatePairSettings(
        from,
        to,
        { isEnabled: body.isEnabled, fromMinMinor, fromMaxMinor },
        tx,
      );
      const proposed: SettingChange[] = [];
      if (body.spreadBps !== undefined && body.spreadBps !== current.spreadBps)
        proposed.push(
          await this.propose(tx, operator, {
            targetKind: 'pair',
            targetKey: pair,
            field: 'spreadBps',
            before: String(current.spreadBps),
            after: String(body.spreadBps),
          }),
        );
      return { before: toOpsPairSetting(current), setting: toOpsPairSetting(updated), proposed };
    });
  }

  /**
   * Approve and apply a proposed change, in one transaction: the row moves 'proposed' → 'applied'
   * with a conditional `UPDATE … WHERE status = 'proposed' AND proposed_by_id <> <approver>`, then
   * the field is set to `after` through the owning module's service.
   * The change's target is locked first (as direct updates lock it), and its current value must
   * still be the change's `before`.
   * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) when the approver proposed it;
   *   SETTING_CHANGE_STATE_CHANGED (156, content `{ status }`) when already decided;
   *   SETTING_CHANGE_STALE (176, 409, `{current}`) when the value changed since the proposal —
   *   nothing changes then, and the change stays proposed (to be rejected and proposed again).
   */
  async approve(operator: ActingOperator, id: number): Promise<SettingChange> {
    return this.db.transaction(async (tx) => {
      const proposal = await this.find(tx, id);
      await lockSettingTarget(tx, proposal.targetKind as SettingTargetKind, proposal.targetKey);
      const [claimed] = await tx
        .update(settingChanges)
        .set({ status: 'applied', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: this.now() })
        .where(
          and(
            eq(settingChanges.id, id),
            eq(settingChanges.status, 'proposed'),
            ne(settingChanges.proposedById, operator.id),
          ),
        )
        .returning();
      if (!claimed) {
        const existing = await this.find(tx, id);
        if (existing.status !== 'proposed')
          throw new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: existing.status });
        throw new DomainError('FOUR_EYES_REQUIRED');
      }
      // The value the proposer saw must still be the value: a change approved or made since
      // would otherwise be overwritten unseen. Throwing rolls the claim back (still 'proposed').
      const current = await this.currentValue(tx, claimed);
      if (current !== claimed.before) throw new DomainError('SETTING_CHANGE_STALE', { current: current ?? '—' });
      await this.apply(tx, claimed);
      return toSettingChange(claimed);
    });
  }

  /**
   * Reject a proposed change (any admin, its proposer included: nothing changes). Decided once.
   * @throws DomainError NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156, content `{ status }`).
   */
  async reject(operator: ActingOperator, id: number): Promise<SettingChange> {
    const [rejected] = await this.db
      .update(settingChanges)
      .set({ status: 'rejected', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: this.now() })
      .where(and(eq(settingChanges.id, id), eq(settingChanges.status, 'proposed')))
      .returning();
    if (rejected) return toSettingChange(rejected);
    const existing = await this.find(this.db, id);
    throw new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: existing.status });
  }

  private async propose(
    tx: DbOrTx,
    operator: ActingOperator,
    change: { targetKind: SettingTargetKind; targetKey: string; field: string; before: string; after: string },
  ): Promise<SettingChange> {
    const [row] = await tx
      .insert(settingChanges)
      .values({ ...change, proposedById: operator.id, proposedByEmail: operator.email, proposedAt: this.now() })
      .returning();
    return toSettingChange(row!);
  }

  /** The current value of the change's field, formatted as `before` was (null when the target is gone). */
  private async currentValue(tx: DbOrTx, change: ChangeRow): Promise<string | null> {
    if (change.targetKind === 'network' && change.field === 'withdrawFee') {
      const [coinCode, network] = change.targetKey.split('/') as [AssetCode, string];
      const current = await this.wallet.networkSettings(coinCode, network, tx);
      return current ? toDecimalString(current.withdrawFeeMinor, coinCode) : null;
    }
    if (change.targetKind === 'pair' && change.field === 'spreadBps') {
      const current = (await this.exchange.listPairSettings(tx)).find((row) => row.pair === change.targetKey);
      return current ? String(current.spreadBps) : null;
    }
    throw new Error(`unknown setting change ${change.targetKind}.${change.field}`);
  }

  /** Set the change's field to its `after` value through the wallet or exchange service. */
  private async apply(tx: DbOrTx, change: ChangeRow): Promise<void> {
    if (change.targetKind === 'network' && change.field === 'withdrawFee') {
      const [coinCode, network] = change.targetKey.split('/') as [AssetCode, string];
      const updated = await this.wallet.updateNetworkSettings(
        coinCode,
        network,
        { withdrawFeeMinor: parseAmountMinor(change.after, coinCode) },
        tx,
      );
      if (!updated) throw new DomainError('NOT_FOUND');
      return;
    }
    if (change.targetKind === 'pair' && change.field === 'spreadBps') {
      const { from, to } = parsePair(change.targetKey);
      await this.exchange.updatePairSettings(from, to, { spreadBps: Number.parseInt(change.after, 10) }, tx);
      return;
    }
    throw new Error(`unknown setting change ${change.targetKind}.${change.field}`);
  }

  private async find(db: DbOrTx, id: number): Promise<ChangeRow> {
    const [row] = await db.select().from(settingChanges).where(eq(settingChanges.id, id));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }
}

/** The contract's view of a row. */
function toSettingChange(row: ChangeRow): SettingChange {
  return {
    id: row.id,
    targetKind: row.targetKind as SettingTargetKind,
    targetKey: row.targetKey,
    field: row.field,
    before: row.before,
    after: row.after,
    status: row.status as SettingChangeStatus,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}
