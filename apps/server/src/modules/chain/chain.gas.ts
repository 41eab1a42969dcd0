import type { DbOrTx } from '../../platform/db/client.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer } from '../ledger/ledger.types.ts';
import { toMinorUnits } from './chain.amounts.ts';

/** The gas of one mined hot-wallet transaction, as its receipt gives it. */
export interface MinedGas {
  chainId: number;
  /** The mined transaction (lowercase hex); the entry's key, so each is booked once. */
  txHash: string;
  /** The wallet withdrawal the transaction paid (the entry's reference). */
  withdrawalId: number;
  /** Receipt `gasUsed`. */
  gasUsed: bigint;
  /** Receipt `effectiveGasPrice`, wei per gas. */
  effectiveGasPrice: bigint;
}

/** What `bookGasInTx` booked: the gas in wei, the minor units posted and the unbooked rest in wei. */
export interface GasBooking {
  feeWei: bigint;
  /** ETH minor units (8 decimals) posted; 0 when the fee is below one minor unit (nothing posted). */
  feeMinor: bigint;
  /** The part of the fee below one minor unit (< 10^10 wei), not booked. */
  dustWei: bigint;
  /** The entry (the first one on a rerun), or null when nothing was posted. */
  entryId: number | null;
  isReplay: boolean;
}

/** The idempotency key of the gas entry of transaction `txHash` on chain `chainId`. */
export const gasEntryKey = (chainId: number, txHash: string) => `chain-gas:${chainId}:${txHash.toLowerCase()}`;

/**
 * Book the gas a mined hot-wallet transaction paid (docs/chain.md "Gas"): `gasUsed ×
 * effectiveGasPrice` wei, in ETH minor units rounded down like a deposit (`toMinorUnits`: the
 * part below 10^10 wei is not booked), one entry `CHAIN_GAS` PLATFORM_CHAIN_GAS → PLATFORM_HOT_WALLET
 * (the expense account goes negative by what was paid; the hot wallet account, minus what custody
 * holds, rises as the coins leave). Keyed on the transaction hash (`gasEntryKey`): a rerun returns
 * the first entry and moves nothing. Call it in the transaction that records the outcome (the
 * withdrawal's settle or fail) so the two commit together.
 */
export async function bookGasInTx(tx: DbOrTx, gas: MinedGas): Promise<GasBooking> {
  const feeWei = gas.gasUsed * gas.effectiveGasPrice;
  const { minor, dust } = toMinorUnits(feeWei, 18, 'ETH');
  if (minor === 0n) return { feeWei, feeMinor: 0n, dustWei: dust, entryId: null, isReplay: false };
  const txHash = gas.txHash.toLowerCase();
  const { entry, isReplay } = await postEntry(tx, {
    kind: 'CHAIN_GAS',
    reference: `withdrawal:${gas.withdrawalId}`,
    idempotencyKey: gasEntryKey(gas.chainId, txHash),
    postings: transfer(
      platformAccount('PLATFORM_CHAIN_GAS', 'ETH'),
      platformAccount('PLATFORM_HOT_WALLET', 'ETH'),
      minor,
    ),
    metadata: {
      txHash,
      gasUsed: gas.gasUsed.toString(),
      effectiveGasPriceWei: gas.effectiveGasPrice.toString(),
      feeWei: feeWei.toString(),
    },
  });
  return { feeWei, feeMinor: minor, dustWei: dust, entryId: entry.id, isReplay };
}
