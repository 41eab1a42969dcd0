import { ASSET_PRECISION, parseAmountMinor } from '@meridian/contracts/money';
import type { DbOrTx } from '../../platform/db/client.ts';
import { coinNetworks, coins } from './wallet.tables.ts';

type SeedCoin = 'BTC' | 'ETH' | 'USDT' | 'USDC' | 'USDE';

const COINS: { coinCode: SeedCoin; fullName: string; sortOrder: number }[] = [
  { coinCode: 'USDE', fullName: 'USDE', sortOrder: 1 },
  { coinCode: 'USDT', fullName: 'Tether USD', sortOrder: 2 },
  { coinCode: 'USDC', fullName: 'USD Coin', sortOrder: 3 },
  { coinCode: 'BTC', fullName: 'Bitcoin', sortOrder: 4 },
  { coinCode: 'ETH', fullName: 'Ethereum', sortOrder: 5 },
];

/** Per-network limits, written as decimals of the coin and parsed exactly. */
const NETWORKS: { coinCode: SeedCoin; network: string; min: string; max: string; fee: string; confirmations: number }[] = [
  { coinCode: 'BTC', network: 'Bitcoin', min: '0.001', max: '10', fee: '0.0002', confirmations: 2 },
  { coinCode: 'ETH', network: 'Ethereum', min: '0.01', max: '200', fee: '0.002', confirmations: 12 },
  { coinCode: 'USDT', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  { coinCode: 'USDT', network: 'TRC20', min: '10', max: '500000', fee: '1', confirmations: 20 },
  { coinCode: 'USDC', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
  { coinCode: 'USDE', network: 'ERC20', min: '20', max: '500000', fee: '5', confirmations: 12 },
];

/** Coins and networks (issue 4 list), idempotent: existing rows, perhaps edited by operators, stay. */
export async function seedWallet(db: DbOrTx): Promise<void> {
  await db
    .insert(coins)
    .values(COINS.map((coin) => ({ ...coin, iconPath: `/coins/${coin.coinCode.toLowerCase()}.svg`, precision: ASSET_PRECISION[coin.coinCode] })))
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
}
