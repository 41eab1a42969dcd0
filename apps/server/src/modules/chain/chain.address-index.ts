import type { ChainWallet } from './chain.types.ts';

/** Addresses read per query when the index catches up. */
const ADDRESSES_PER_READ = 5000;
/**
 * How far behind its highest id the index reads again: ids are taken in order but committed in any
 * order, so an address with a lower id may commit after a higher one was read (at most as many
 * as there are address requests in flight at once, far fewer than this).
 */
const ID_OVERLAP = 100;

/**
 * Deposit address → owner, for the watcher's look-up of every transfer in a block: a `Map` of
 * lowercase 0x… addresses, filled from the wallet's `deposit_addresses` and kept up by reading
 * only the rows added since (by id, with an overlap for late commits). One look-up is O(1); 10 000
 * addresses take about 1 MB. `refresh` runs after each block is read and before it is matched, so
 * an address handed out before a transfer to it was mined is always known.
 */
export class DepositAddressIndex {
  private readonly owners = new Map<string, string>();
  private highestId = 0;

  constructor(private readonly wallet: Pick<ChainWallet, 'depositAddressesAfter'>) {}

  /** Read the addresses added since the last refresh. */
  async refresh(): Promise<void> {
    let afterId = Math.max(0, this.highestId - ID_OVERLAP);
    for (;;) {
      const rows = await this.wallet.depositAddressesAfter('evm', afterId, ADDRESSES_PER_READ);
      for (const row of rows) {
        this.owners.set(row.address.toLowerCase(), row.userId);
        this.highestId = Math.max(this.highestId, row.id);
      }
      if (rows.length < ADDRESSES_PER_READ) return;
      afterId = rows.at(-1)!.id;
    }
  }

  /** The owner of `address` (any case), or undefined when it is not one of ours. */
  ownerOf(address: string): string | undefined {
    return this.owners.get(address.toLowerCase());
  }

  /** How many addresses are indexed. */
  get size(): number {
    return this.owners.size;
  }
}
