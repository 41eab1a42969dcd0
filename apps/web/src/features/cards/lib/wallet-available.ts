import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';

/** The wallet's available amount of each coin (decimal strings; "0" for a coin it does not hold). */
export function useWalletAvailable(): (coin: string) => string {
  const balance = useWalletBalance();
  const assets = balance.data?.wallet.accounts[0]?.assets ?? [];
  return (coin) => assets.find((a) => a.coinCode === coin && a.type === 'available')?.amount ?? '0';
}
