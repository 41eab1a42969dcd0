import type { WalletCoin } from '@meridian/contracts/wallet';
import { useEffect, useState } from 'react';

/**
 * The network chosen for `coin` among those open for `direction`: the first one at start,
 * and again when a coin change (or a network switched off) leaves the chosen one unavailable.
 * `net` is the chosen network's settings (limits, fee, confirmations).
 */
export function useNetworkChoice(coins: WalletCoin[], coin: string, direction: 'deposit' | 'withdraw') {
  const nets = (coins.find((c) => c.coinCode === coin)?.nets ?? []).filter((n) =>
    direction === 'deposit' ? n.isDepositEnabled : n.isWithdrawEnabled,
  );
  const [network, setNetwork] = useState<string | undefined>(nets[0]?.network);
  const networkNames = nets.map((n) => n.network).join();
  useEffect(() => {
    const names = networkNames.split(',');
    if (network === undefined || !names.includes(network)) setNetwork(names[0] || undefined);
  }, [networkNames, network]);
  return { network, setNetwork, net: nets.find((n) => n.network === network) };
}
