import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import type { BalanceContent } from '@meridian/contracts/wallet';
import Decimal from 'decimal.js';
import { userBalances } from '../ledger/ledger.service.ts';
import { price, type WalletContext } from './wallet.internal.ts';
import type { NetworksPart } from './wallet.networks.ts';

/** USD value with 2 decimals, rounded down (a display of what the user holds never overstates it). */
function usdValue(amountMinor: bigint, asset: AssetCode, usdPerCoin: string | null): string | null {
  if (usdPerCoin === null) return null;
  return new Decimal(toDecimalString(amountMinor, asset))
    .mul(usdPerCoin)
    .toDecimalPlaces(2, Decimal.ROUND_DOWN)
    .toFixed(2);
}

/** Balances per coin and per account with their USD values. */
export function createBalancesService(ctx: WalletContext, networks: Pick<NetworksPart, 'listCoins'>) {
  /**
   * Balances per coin (available and frozen) with USD values, for `wallet/balance`,
   * `account/balance` and `wallet/overview`. Every enabled coin is listed, zero when untouched.
   * Fund and card accounts are totalled from the ledger's USER_FUND (+ USER_FUND_FIXED, USER_FUND_FROZEN) and USER_CARD accounts,
   * the trust account from what the user's BTC trusts hold (`trustHoldings`).
   */
  async function balances(userId: string): Promise<BalanceContent> {
    const enabled = (await networks.listCoins()).map((coin) => coin.coinCode);
    const ledger = await userBalances(ctx.db, userId);
    const amountOf = (type: string, asset: AssetCode) =>
      ledger.find((b) => b.type === type && b.asset === asset)?.balanceMinor ?? 0n;
    const assetsInLedger = [...new Set([...enabled, ...ledger.map((b) => b.asset)])];
    const prices = new Map<AssetCode, string | null>();
    await Promise.all(assetsInLedger.map(async (asset) => prices.set(asset, await price(ctx, asset))));
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
    const trustHeld = (await ctx.options.trustHoldings?.heldMinorByAsset(userId)) ?? new Map<AssetCode, bigint>();
    for (const asset of trustHeld.keys()) if (!prices.has(asset)) prices.set(asset, await price(ctx, asset));
    const cardHeld = (await ctx.options.cardHoldings?.heldMinorByAsset(userId)) ?? new Map<AssetCode, bigint>();
    for (const asset of cardHeld.keys())
      if ((prices.get(asset) ?? null) === null)
        prices.set(asset, (await ctx.options.cardHoldings?.usdPerUnit(asset)) ?? null);
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
    if (ctx.options.loanHoldings) {
      // Collateral (pledged BTC, `frozen`) and debt (negative amounts): the account's total is their net.
      const { collateralMinor, debts } = await ctx.options.loanHoldings.holdingsOf(userId);
      for (const asset of ['BTC' as AssetCode, ...debts.map((debt) => debt.coin)])
        if (!prices.has(asset)) prices.set(asset, await price(ctx, asset));
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

  return { balances };
}
