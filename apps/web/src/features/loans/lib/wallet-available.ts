import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';

/**
 * The wallet's available amount of a coin in the MainAccount ("0" when none). Found by account type:
 * the balance also lists the LoanAccount, whose debts are negative `available` amounts.
 */
export function useWalletAvailable(): (coin: string) => string {
  const balance = useWalletBalance();
  return (coin) =>
    balance.data?.wallet.accounts
      .find((account) => account.accountType === 'MainAccount')
      ?.assets.find((asset) => asset.coinCode === coin && asset.type === 'available')?.amount ?? '0';
}
