import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import type { WalletCoin } from '@meridian/contracts/wallet';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { coinNetworks, coins } from './wallet.tables.ts';
import type { NetworkSettings, NetworkSettingsPatch } from './wallet.types.ts';
import { asAsset, type WalletContext } from './wallet.internal.ts';

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

/** The wallet's coins and networks: what users see, and the operators' network settings. */
export function createNetworksService(ctx: WalletContext) {
  /** Enabled coins in display order, each with its networks and their limits (decimal strings). */
  async function listCoins(): Promise<WalletCoin[]> {
    const coinRows = await ctx.db
      .select()
      .from(coins)
      .where(eq(coins.isEnabled, true))
      .orderBy(asc(coins.sortOrder), asc(coins.coinCode));
    const netRows = await ctx.db.select().from(coinNetworks).orderBy(asc(coinNetworks.id));
    return coinRows
      .filter((coin) => isAssetCode(coin.coinCode))
      .map((coin) => {
        const asset = asAsset(coin.coinCode);
        return {
          coinCode: asset,
          fullName: coin.fullName,
          icon: coin.iconPath,
          precision: coin.precision,
          nets: netRows.filter((net) => net.coinCode === coin.coinCode).map((net) => toNetwork(net, asset)),
        };
      });
  }

  /** The networks of one coin (`wallet/network?coin=`); empty for an unknown or disabled coin. */
  async function listNetworks(coinCode: AssetCode): Promise<WalletCoin['nets']> {
    return (await listCoins()).find((coin) => coin.coinCode === coinCode)?.nets ?? [];
  }

  function toNetwork(net: typeof coinNetworks.$inferSelect, asset: AssetCode): WalletCoin['nets'][number] {
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
  async function listNetworkSettings(db: DbOrTx = ctx.db): Promise<NetworkSettings[]> {
    const rows = await db
      .select({ coin: coins, net: coinNetworks })
      .from(coinNetworks)
      .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
      .orderBy(asc(coins.sortOrder), asc(coins.coinCode), asc(coinNetworks.id));
    return rows.filter(({ coin }) => isAssetCode(coin.coinCode)).map(({ coin, net }) => toNetworkSettings(coin, net));
  }

  /** One network's settings (see `listNetworkSettings`), or undefined when the coin does not move on it. */
  async function networkSettings(
    coinCode: string,
    network: string,
    db: DbOrTx = ctx.db,
  ): Promise<NetworkSettings | undefined> {
    return (await listNetworkSettings(db)).find((row) => row.coinCode === coinCode && row.network === network);
  }

  /**
   * Operators: change a network's switches, withdrawal limits and fee (minor units of the coin) and
   * confirmations; fields left out stay. The caller (the back office) has checked min ≤ max and that
   * a fee change was approved by a second operator. Answers the row as it now stands, or undefined
   * when the coin does not move on the network. Takes effect at once (no cache).
   */
  async function updateNetworkSettings(
    coinCode: string,
    network: string,
    patch: NetworkSettingsPatch,
    db: DbOrTx = ctx.db,
  ): Promise<NetworkSettings | undefined> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length > 0)
      await db
        .update(coinNetworks)
        .set(set)
        .where(and(eq(coinNetworks.coinCode, coinCode), eq(coinNetworks.network, network)));
    return networkSettings(coinCode, network, db);
  }

  return { listCoins, listNetworks, listNetworkSettings, networkSettings, updateNetworkSettings };
}

/** The networks part of the wallet service. */
export type NetworksPart = ReturnType<typeof createNetworksService>;
