import { createPublicClient, erc20Abi, http, parseAbiItem, type PublicClient } from 'viem';
import type { EvmBlock, EvmNode, EvmTransfer } from './chain.types.ts';

/** The ERC-20 `Transfer` event (EIP-20). ERC-721's has the same signature with a third indexed topic: left out by strict decoding. */
export const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** How the JSON-RPC client behaves. */
export interface ViemNodeOptions {
  /** One request's timeout; default 10 000 ms. */
  timeoutMs?: number;
  /** Retries of a failed request (viem's backoff); default 2. */
  retryCount?: number;
}

/**
 * An `EvmNode` over an Ethereum JSON-RPC endpoint with viem: blocks with their transactions
 * (`eth_getBlockByNumber`), the block's `Transfer` logs by block hash (`eth_getLogs`, so the logs
 * belong to the very block read), the `finalized` tag, and `decimals()` of token contracts.
 */
export function createViemNode(rpcUrl: string, options: ViemNodeOptions = {}): EvmNode {
  const client: PublicClient = createPublicClient({
    transport: http(rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: options.retryCount ?? 2 }),
  });
  return {
    chainId: async () => client.getChainId(),
    latestBlockNumber: async () => Number(await client.getBlockNumber({ cacheTime: 0 })),
    finalizedBlockNumber: async () => {
      try {
        const block = await client.getBlock({ blockTag: 'finalized' });
        return block.number === null ? null : Number(block.number);
      } catch {
        return null;
      }
    },
    blockHash: async (number) => {
      try {
        const block = await client.getBlock({ blockNumber: BigInt(number) });
        return block.hash?.toLowerCase() ?? null;
      } catch {
        return null;
      }
    },
    blockTimestamp: async (number) => {
      try {
        return Number((await client.getBlock({ blockNumber: BigInt(number) })).timestamp);
      } catch {
        return null;
      }
    },
    readBlock: async (number) => {
      let block;
      try {
        block = await client.getBlock({ blockNumber: BigInt(number), includeTransactions: true });
      } catch {
        return null;
      }
      if (!block.hash) return null;
      const transfers: EvmTransfer[] = [];
      for (const transaction of block.transactions) {
        if (!transaction.to || transaction.value === 0n) continue;
        transfers.push({
          txHash: transaction.hash.toLowerCase(),
          logIndex: -1,
          token: null,
          from: transaction.from.toLowerCase(),
          to: transaction.to.toLowerCase(),
          value: transaction.value,
        });
      }
      const logs = await client.getLogs({ event: TRANSFER_EVENT, blockHash: block.hash, strict: true });
      for (const log of logs) {
        if (log.logIndex === null || log.transactionHash === null) continue;
        transfers.push({
          txHash: log.transactionHash.toLowerCase(),
          logIndex: log.logIndex,
          token: log.address.toLowerCase(),
          from: log.args.from.toLowerCase(),
          to: log.args.to.toLowerCase(),
          value: log.args.value,
        });
      }
      return toEvmBlock(number, block.hash, block.parentHash, transfers);
    },
    tokenDecimals: async (token) =>
      client.readContract({ address: token as `0x${string}`, abi: erc20Abi, functionName: 'decimals' }),
  };
}

function toEvmBlock(number: number, hash: string, parentHash: string, transfers: EvmTransfer[]): EvmBlock {
  return { number, hash: hash.toLowerCase(), parentHash: parentHash.toLowerCase(), transfers };
}
