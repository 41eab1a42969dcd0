import { type AssetCode, parseAmountMinor } from '@meridian/contracts/money';
import { and, eq } from 'drizzle-orm';
import { type Address, erc20Abi, type PublicClient } from 'viem';
import type { Db } from '../../platform/db/client.ts';
import { toMinorUnits } from './chain.amounts.ts';
import { chainHotWalletAlerts } from './chain.tables.ts';

/** One coin's balance in the hot wallet. */
export interface HotWalletCoinBalance {
  coin: AssetCode;
  /** The ERC-20 contract, or null for ETH. */
  token: string | null;
  /** In the token's base units (wei for ETH). */
  raw: bigint;
  /** In minor units of the coin. */
  minor: bigint;
  /** Below EVM_HOT_WALLET_MIN: its withdrawals queue (for ETH: every withdrawal, as ETH pays the gas). */
  isLow: boolean;
}

/** What `watchHotWallet` needs. */
export interface HotWalletWatch {
  db: Db;
  client: PublicClient;
  hotWalletId: number;
  address: Address;
  /** ERC-20 contracts by coin code (EVM_TOKENS). */
  tokens: Readonly<Record<string, string>>;
  /** Decimal amounts by coin code (EVM_HOT_WALLET_MIN, EVM_HOT_WALLET_MAX). */
  min: Readonly<Record<string, string>>;
  max: Readonly<Record<string, string>>;
  now: () => Date;
  log: { warn(detail: object, message: string): void; error(detail: object, message: string): void };
  /** Called when an alert is opened (metrics). */
  onAlert?: (kind: 'low' | 'excess', coin: string) => void;
}

const ETH_DECIMALS = 18;
const decimalsCache = new Map<string, number>();

async function decimalsOf(client: PublicClient, token: string): Promise<number> {
  const known = decimalsCache.get(token);
  if (known !== undefined) return known;
  const decimals = await client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'decimals' });
  decimalsCache.set(token, decimals);
  return decimals;
}

/** The hot wallet's coins: ETH, then each configured token. */
function coinsOf(tokens: Readonly<Record<string, string>>): { coin: AssetCode; token: string | null }[] {
  return [
    { coin: 'ETH', token: null },
    ...Object.entries(tokens).map(([coin, token]) => ({ coin: coin as AssetCode, token })),
  ];
}

/**
 * The balance of `coin` (`token` its ERC-20 contract, null for ETH) held by `address`: base units
 * and minor units (rounded down, `toMinorUnits`).
 */
export async function readCoinBalance(
  client: PublicClient,
  address: Address,
  coin: AssetCode,
  token: string | null,
): Promise<{ raw: bigint; minor: bigint }> {
  const raw = token
    ? await client.readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      })
    : await client.getBalance({ address });
  const decimals = token ? await decimalsOf(client, token) : ETH_DECIMALS;
  return { raw, minor: toMinorUnits(raw, decimals, coin).minor };
}

/**
 * The hot wallet's balances for the back office: per coin (ETH, then the tokens) the balance now in
 * minor units, rounded down; null for a coin the node did not answer for (the read never throws).
 */
export async function readHotWalletBalances(
  client: PublicClient,
  address: Address,
  tokens: Readonly<Record<string, string>>,
): Promise<{ coin: AssetCode; minor: bigint | null }[]> {
  return Promise.all(
    coinsOf(tokens).map(async ({ coin, token }) => ({
      coin,
      minor: await readCoinBalance(client, address, coin, token).then(
        (read) => read.minor,
        () => null,
      ),
    })),
  );
}

/**
 * Read the hot wallet's ETH and token balances and keep the back office told: a coin below its
 * minimum opens a `low` alert (logged at error level with `alert: chain-hot-wallet-low`; its
 * withdrawals queue, approved and unsent), one above its maximum an `excess` alert (`alert:
 * chain-hot-wallet-excess`: move the excess to cold storage). An alert is opened once and resolved
 * when the balance is back in range.
 */
export async function watchHotWallet(watch: HotWalletWatch): Promise<HotWalletCoinBalance[]> {
  const { client, address } = watch;
  const balances: HotWalletCoinBalance[] = [];
  for (const { coin, token } of coinsOf(watch.tokens)) {
    const { raw, minor } = await readCoinBalance(client, address, coin, token);
    const minMinor = watch.min[coin] === undefined ? undefined : parseAmountMinor(watch.min[coin], coin);
    const maxMinor = watch.max[coin] === undefined ? undefined : parseAmountMinor(watch.max[coin], coin);
    const isLow = minMinor !== undefined && minor < minMinor;
    const isExcess = maxMinor !== undefined && minor > maxMinor;
    await keepAlert(watch, coin, 'low', isLow, minor, minMinor ?? 0n);
    await keepAlert(watch, coin, 'excess', isExcess, minor, maxMinor ?? 0n);
    balances.push({ coin, token, raw, minor, isLow });
  }
  return balances;
}

/** Open the (wallet, coin, kind) alert when `isOn` and none is open; resolve the open one otherwise. */
async function keepAlert(
  watch: HotWalletWatch,
  coin: string,
  kind: 'low' | 'excess',
  isOn: boolean,
  balanceMinor: bigint,
  limitMinor: bigint,
): Promise<void> {
  const openOne = and(
    eq(chainHotWalletAlerts.hotWalletId, watch.hotWalletId),
    eq(chainHotWalletAlerts.coinCode, coin),
    eq(chainHotWalletAlerts.kind, kind),
    eq(chainHotWalletAlerts.status, 'open'),
  );
  if (!isOn) {
    await watch.db.update(chainHotWalletAlerts).set({ status: 'resolved', resolvedAt: watch.now() }).where(openOne);
    return;
  }
  const opened = await watch.db
    .insert(chainHotWalletAlerts)
    .values({ hotWalletId: watch.hotWalletId, coinCode: coin, kind, balanceMinor, limitMinor })
    .onConflictDoNothing()
    .returning({ id: chainHotWalletAlerts.id });
  if (opened.length === 0) return;
  watch.onAlert?.(kind, coin);
  watch.log.error(
    { alert: `chain-hot-wallet-${kind}`, coin, balanceMinor: String(balanceMinor), limitMinor: String(limitMinor) },
    kind === 'low'
      ? 'hot wallet below its minimum: withdrawals of the coin queue until it is refilled'
      : 'hot wallet above its maximum: move the excess to cold storage',
  );
}
