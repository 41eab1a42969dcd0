import type { WalletRecord } from '@meridian/contracts/wallet';
import { Tooltip, Typography } from 'antd';
import { useWithdrawalChain } from '../api/get-withdrawal-chain.ts';
import { shortenMiddle } from '../lib/shorten-middle.ts';

/** Networks whose withdrawals the hot wallet sends (docs/chain.md "Withdrawals"). */
const HOT_WALLET_NETWORKS = new Set(['Ethereum', 'ERC20']);

/**
 * The transaction of a withdrawal in the history: its hash shortened in the middle (whole in a
 * tooltip, copyable), linked to the block explorer when the hot wallet sent it; nothing before a
 * hash is known.
 */
export function WithdrawalTxLink({ record }: { record: WalletRecord }) {
  const hash = record.txHash;
  const isSentByHotWallet = hash !== null && record.type === 'OUTER' && HOT_WALLET_NETWORKS.has(record.network);
  const chain = useWithdrawalChain(record.id, isSentByHotWallet);
  if (hash === null) return null;
  const url = chain.data?.explorerUrl ?? null;
  const label = (
    <Tooltip title={hash}>
      <span data-testid="record-tx-hash">{shortenMiddle(hash)}</span>
    </Tooltip>
  );
  return (
    <Typography.Text copyable={{ text: hash }} style={{ whiteSpace: 'nowrap' }}>
      {url ? (
        <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
          {label}
        </Typography.Link>
      ) : (
        label
      )}
    </Typography.Text>
  );
}
