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
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { ExchangeService, PairSettingsRow } from '../exchange/exchange.service.ts';
import type { NetworkSettings, WalletService } from '../wallet/wallet.service.ts';
import type { SettingProposal, SettingsOperator, SettingsWorkflow } from './admin.types.ts';

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
    /** The one four-eyes workflow, with the fee and spread kinds registered (`registerProductSettingKinds`). */
    private readonly workflow: SettingsWorkflow,
  ) {}

  /** Every coin network's settings (contract view). */
  async listNetworks(): Promise<OpsNetworkSetting[]> {
    return (await this.wallet.listNetworkSettings()).map(toOpsNetworkSetting);
  }

  /** Every swap pair's settings (contract view). */
  async listPairs(): Promise<OpsPairSetting[]> {
    return (await this.exchange.listPairSettings()).map(toOpsPairSetting);
  }

  /**
   * Settings changes of every registered kind (network, pair, loans, cards, funds), newest first,
   * optionally of one status (at most 200); each change is decided on its own page's routes.
   */
  async listChanges(query: { status?: SettingChangeStatus | undefined }): Promise<SettingChange[]> {
    const rows = await this.workflow.list({ kinds: this.workflow.registeredKinds(), status: query.status });
    return rows.map((row) => toSettingChange(row, this.workflow));
  }

  /**
   * Change a network: switches, limits (decimal strings of the coin) and confirmations at once; a
   * fee that differs from the current one is proposed (answered in `proposed`), not applied.
   * @throws DomainError NOT_FOUND (the coin does not move on the network); FieldError (120) on
   *   `withdrawMin` / `withdrawMax` / `withdrawFee` (too many decimals, malformed) or `withdrawMin`
   *   (`validation.minAboveMax`: min above max, after the change) — nothing changes then.
   */
  async updateNetwork(
    operator: SettingsOperator,
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
    operator: SettingsOperator,
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
            after: String(body.spreadBps),
          }),
        );
      return { before: toOpsPairSetting(current), setting: toOpsPairSetting(updated), proposed };
    });
  }

  /**
   * Approve and apply a proposed fee or spread change through the settings workflow (the target
   * locked as direct updates lock it; its current value must still be the change's `before`).
   * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) when the approver proposed it;
   *   SETTING_CHANGE_STATE_CHANGED (156, content `{ status }`) when already decided;
   *   SETTING_CHANGE_STALE (176, 409, `{current}`) when the value changed since the proposal —
   *   nothing changes then, and the change stays proposed (to be rejected and proposed again).
   */
  async approve(operator: SettingsOperator, id: number): Promise<SettingChange> {
    return toSettingChange(await this.workflow.approve(operator, id, PRODUCT_SETTING_KINDS), this.workflow);
  }

  /**
   * Reject a proposed change (any admin, its proposer included: nothing changes). Decided once.
   * @throws DomainError NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156, content `{ status }`).
   */
  async reject(operator: SettingsOperator, id: number): Promise<SettingChange> {
    return toSettingChange(await this.workflow.reject(operator, id, PRODUCT_SETTING_KINDS), this.workflow);
  }

  private async propose(
    tx: DbOrTx,
    operator: SettingsOperator,
    change: { targetKind: SettingTargetKind; targetKey: string; field: string; after: string },
  ): Promise<SettingChange> {
    const kind = `${change.targetKind}.${change.field}`;
    const after = { [change.field]: change.after };
    return toSettingChange(await this.workflow.propose(operator, kind, change.targetKey, after, tx), this.workflow);
  }
}

/** A proposal's values of a fee or spread kind: the one field, as text (`{ withdrawFee: "1.5" }`). */
type OneField = Record<string, string>;

/**
 * Register the fee and spread kinds with the settings workflow: a network's withdrawal fee
 * ('network.withdrawFee', key `COIN/NETWORK`, values `{ withdrawFee }` a decimal string of the coin)
 * and a pair's spread ('pair.spreadBps', key `FROM/TO`, values `{ spreadBps }` an integer string of
 * basis points); admins propose and approve. The values are objects, not bare JSON strings: a
 * `jsonb` string such as "80" would be read back as the number 80.
 */
export function registerProductSettingKinds(
  workflow: SettingsWorkflow,
  wallet: SettingsWallet,
  exchange: SettingsExchange,
): void {
  const oneField = (field: string) => z.object({ [field]: z.string() }) as unknown as z.ZodType<OneField>;
  workflow.register<OneField>({
    kind: 'network.withdrawFee',
    valuesSchema: oneField('withdrawFee'),
    proposerRoles: ['admin'],
    approverRoles: ['admin'],
    lock: (tx, key) => lockSettingTarget(tx, 'network', key),
    read: async (tx, key) => {
      const [coinCode, network] = key.split('/') as [AssetCode, string];
      const current = await wallet.networkSettings(coinCode, network, tx);
      return current ? { withdrawFee: toDecimalString(current.withdrawFeeMinor, coinCode) } : null;
    },
    isSame: (current, before) => current.withdrawFee === before.withdrawFee,
    apply: async (tx, key, after) => {
      const [coinCode, network] = key.split('/') as [AssetCode, string];
      const updated = await wallet.updateNetworkSettings(
        coinCode,
        network,
        { withdrawFeeMinor: parseAmountMinor(after.withdrawFee!, coinCode) },
        tx,
      );
      if (!updated) throw new DomainError('NOT_FOUND');
    },
    describe: (current) => current.withdrawFee!,
  });
  workflow.register<OneField>({
    kind: 'pair.spreadBps',
    valuesSchema: oneField('spreadBps'),
    proposerRoles: ['admin'],
    approverRoles: ['admin'],
    lock: (tx, key) => lockSettingTarget(tx, 'pair', key),
    read: async (tx, key) => {
      const current = (await exchange.listPairSettings(tx)).find((row) => row.pair === key);
      return current ? { spreadBps: String(current.spreadBps) } : null;
    },
    isSame: (current, before) => current.spreadBps === before.spreadBps,
    apply: async (tx, key, after) => {
      const { from, to } = parsePair(key);
      await exchange.updatePairSettings(from, to, { spreadBps: Number.parseInt(after.spreadBps!, 10) }, tx);
    },
    describe: (current) => current.spreadBps!,
  });
}

/** The workflow kinds this page's changes are (`/admin/settings/changes` lists and decides only these). */
export const PRODUCT_SETTING_KINDS = ['network.withdrawFee', 'pair.spreadBps'] as const;

/**
 * The contract's view of a workflow proposal (kind `<targetKind>.<field>`): a fee or spread's one
 * field as its text, any other kind's values as the kind describes them.
 */
function toSettingChange(row: SettingProposal, workflow: Pick<SettingsWorkflow, 'describe'>): SettingChange {
  const [targetKind, field] = row.kind.split('.') as [SettingTargetKind, string];
  const isOneField = (PRODUCT_SETTING_KINDS as readonly string[]).includes(row.kind);
  const text = (values: unknown) =>
    isOneField ? ((values as OneField)[field] ?? '') : workflow.describe(row.kind, values);
  return {
    id: row.id,
    kind: row.kind,
    targetKind,
    targetKey: row.targetKey,
    field,
    before: text(row.before),
    after: text(row.after),
    status: row.status,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}
