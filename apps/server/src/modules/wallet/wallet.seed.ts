import { ASSET_PRECISION, parseAmountMinor } from '@meridian/contracts/money';
import type { DbOrTx } from '../../platform/db/client.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { normalizeAddress } from './wallet.addresses.ts';
import { blockedDestinations, coinNetworks, coins } from './wallet.tables.ts';

type SeedCoin = 'BTC' | 'ETH' | 'USDT' | 'USDC' | 'USDE' | 'EURE';

const COINS: { coinCode: SeedCoin; fullName: string; sortOrder: number }[] = [
  { coinCode: 'USDE', fullName: 'USDE', sortOrder: 1 },
  { coinCode: 'USDT', fullName: 'Tether USD', sortOrder: 2 },
  { coinCode: 'USDC', fullName: 'USD Coin', sortOrder: 3 },
  { coinCode: 'BTC', fullName: 'Bitcoin', sortOrder: 4 },
  { coinCode: 'ETH', fullName: 'Ethereum', sortOrder: 5 },
  // Monerium's EUR e-money token ("EURE to EUR is 1:1"), valued at the cards' EUR rate.
  { coinCode: 'EURE', fullName: 'Monerium EUR', sortOrder: 6 },
];

/** Per-network limits, written as decimals of the coin and parsed exactly. */
const NETWORKS: {
  coinCode: SeedCoin;
  network: string;
  min: string;
  max: string;
  fee: string;
  confirmations: number;
}[] = [
  { coinCode: 'BTC', network: 'Bitcoin', min: '0.001', max: '10', fee: '0.0002', confirmations: 2 },
  { coinCode: 'ETH', network: 'Ethereum', min: '0.01', max: '200', fee: '0.002', confirmations: 12 },
  { coinCode: 'USDT', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  { coinCode: 'USDT', network: 'TRC20', min: '10', max: '500000', fee: '1', confirmations: 20 },
  { coinCode: 'USDC', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  { coinCode: 'USDE', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  { coinCode: 'EURE', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  // Gnosis Chain: EVM addresses, cheap transfers, ~5 s blocks (so more confirmations for the same time).
  { coinCode: 'EURE', network: 'Gnosis', min: '5', max: '500000', fee: '0.5', confirmations: 20 },
];

const EVM_BLOCKED: { address: string; reason: string }[] = [
  { address: '0x0000000000000000000000000000000000000000', reason: 'zero address' },
  { address: '0x000000000000000000000000000000000000dEaD', reason: 'burn address' },
  { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', reason: 'USDT token contract' },
  { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', reason: 'USDC token contract' },
  { address: '0x4c9EDD5852cd905f086C759E8383e09bff1E68B3', reason: 'USDe token contract' },
];

/** Known burn and contract destinations per network, in any valid spelling. */
const BLOCKED: { network: string; address: string; reason: string }[] = [
  ...EVM_BLOCKED.map((row) => ({ ...row, network: 'Ethereum' })),
  ...EVM_BLOCKED.map((row) => ({ ...row, network: 'ERC20' })),
  ...EVM_BLOCKED.map((row) => ({ ...row, network: 'Gnosis' })),
  { network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', reason: 'USDT token contract' },
  { network: 'TRC20', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', reason: 'zero address' },
  { network: 'Bitcoin', address: '1111111111111111111114oLvT2', reason: 'unspendable (zero hash160)' },
  { network: 'Bitcoin', address: '1BitcoinEaterAddressDontSendf59kuE', reason: 'burn address' },
];

/** The supported coins and networks, idempotent: existing rows, perhaps edited by operators, stay. */
export async function seedWallet(db: DbOrTx): Promise<void> {
  await db
    .insert(coins)
    .values(
      COINS.map((coin) => ({
        ...coin,
        iconPath: `/coins/${coin.coinCode.toLowerCase()}.svg`,
        precision: ASSET_PRECISION[coin.coinCode],
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(coinNetworks)
    .values(
      NETWORKS.map((net) => ({
        coinCode: net.coinCode,
        network: net.network,
        withdrawMinMinor: parseAmountMinor(net.min, net.coinCode),
        withdrawMaxMinor: parseAmountMinor(net.max, net.coinCode),
        withdrawFeeMinor: parseAmountMinor(net.fee, net.coinCode),
        confirmationsRequired: net.confirmations,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(blockedDestinations)
    .values(BLOCKED.map((row) => ({ ...row, address: normalizeAddress(row.network, row.address) ?? row.address })))
    .onConflictDoNothing();
}

/**
 * The demo account's starting balances, in decimals of each coin: enough to try
 * every flow (a swap, a withdrawal on each network, above every network's minimum plus its fee).
 */
export const DEMO_FUNDING: Readonly<Record<SeedCoin, string>> = {
  USDT: '10000',
  USDC: '5000',
  USDE: '5000',
  BTC: '0.5',
  ETH: '5',
  // Enough to try a EUR card top-up from EURE at 1:1.
  EURE: '1000',
};

/**
 * Credit the demo user's available balances with `DEMO_FUNDING` through the ledger: one balanced
 * entry (kind DEMO_FUNDING) from the platform's PLATFORM_DEMO_FUNDING accounts. Idempotent: its key
 * names the user, so a second run replays the first entry and credits nothing. Only the demo seed
 * calls it, and the demo seed never runs in production (`config.seedDemo`).
 * @param userId the demo user's id.
 * @returns whether this run credited (false: already funded).
 */
export async function seedDemoFunding(tx: DbOrTx, userId: string): Promise<boolean> {
  const postings = Object.entries(DEMO_FUNDING).flatMap(([coin, amount]) => {
    const asset = coin as SeedCoin;
    return transfer(
      platformAccount('PLATFORM_DEMO_FUNDING', asset),
      userAccount(userId, 'USER_AVAILABLE', asset),
      parseAmountMinor(amount, asset),
    );
  });
  const { isReplay } = await postEntry(tx, {
    kind: 'DEMO_FUNDING',
    reference: `demo-funding:${userId}`,
    idempotencyKey: `demo-funding:${userId}`,
    postings,
  });
  await seedDemoCustody(tx, userId);
  return !isReplay;
}

/**
 * Give custody the coins behind the demo balances, as if they had been deposited: one balanced entry
 * (kind DEMO_FUNDING) PLATFORM_HOT_WALLET → PLATFORM_DEMO_FUNDING of `DEMO_FUNDING`. The hot wallet
 * goes negative by what it holds (ledger.types), so custody's holdings then equal the demo user's
 * balances and the back office and `liabilities compare` show every asset covered on a development
 * server (docs/liabilities.md "Operators: totals against holdings"); PLATFORM_DEMO_FUNDING returns
 * to zero. Its own key, so that a database seeded before this entry existed gets it at the next
 * start. Only the demo seed calls it, never in production (`config.seedDemo`).
 * @param userId the demo user's id (part of the key, as the funding's).
 * @returns whether this run recorded the holdings (false: already recorded).
 */
export async function seedDemoCustody(tx: DbOrTx, userId: string): Promise<boolean> {
  const postings = Object.entries(DEMO_FUNDING).flatMap(([coin, amount]) => {
    const asset = coin as SeedCoin;
    return transfer(
      platformAccount('PLATFORM_HOT_WALLET', asset),
      platformAccount('PLATFORM_DEMO_FUNDING', asset),
      parseAmountMinor(amount, asset),
    );
  });
  const { isReplay } = await postEntry(tx, {
    kind: 'DEMO_FUNDING',
    reference: `demo-custody:${userId}`,
    idempotencyKey: `demo-custody:${userId}`,
    postings,
  });
  return !isReplay;
}
