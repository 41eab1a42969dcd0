import type { AddressBookEntry } from '@meridian/contracts/wallet';
import { and, desc, eq } from 'drizzle-orm';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { chainOf } from './wallet.addresses.ts';
import { addressBook } from './wallet.tables.ts';
import type { FactorCheck } from './wallet.types.ts';
import { checkDestination, NO_FACTORS, type WalletContext } from './wallet.internal.ts';

const WHITELIST_DELAY_MS = 24 * 60 * 60 * 1000;

/** The user's address book of withdrawal destinations. */
export function createAddressBookService(ctx: WalletContext) {
  /** The user's saved withdrawal addresses, newest first (at most 200). */
  async function listAddressBook(userId: string): Promise<AddressBookEntry[]> {
    const rows = await ctx.db
      .select()
      .from(addressBook)
      .where(eq(addressBook.userId, userId))
      .orderBy(desc(addressBook.id))
      .limit(200);
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      network: row.network,
      address: row.address,
      createTime: row.createdAt.toISOString(),
      usableAt: row.usableAt.toISOString(),
    }));
  }

  /**
   * Save an address (the route ran the WITHDRAW_ADDRESS_ADD check). Usable for whitelisted
   * withdrawals 24 hours later; the user is told of every addition.
   * @throws FieldError on `network` (unknown) and `address` (invalid, burn/contract destination, duplicate).
   */
  async function addAddress(
    userId: string,
    input: { label: string; network: string; address: string },
    factors: FactorCheck = NO_FACTORS,
  ): Promise<AddressBookEntry> {
    if (!chainOf(input.network)) throw new FieldError('network', 'validation.networkRequired');
    const address = await checkDestination(ctx, input.network, input.address, userId, 'address_book');
    const [duplicate] = await ctx.db
      .select({ id: addressBook.id })
      .from(addressBook)
      .where(
        and(eq(addressBook.userId, userId), eq(addressBook.network, input.network), eq(addressBook.address, address)),
      );
    if (duplicate) throw new FieldError('address', 'validation.addressBookDuplicate');
    await factors.check();
    const now = ctx.now();
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(addressBook)
        .values({
          userId,
          network: input.network,
          address,
          label: input.label,
          createdAt: now,
          usableAt: new Date(now.getTime() + WHITELIST_DELAY_MS),
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new FieldError('address', 'validation.addressBookDuplicate');
      await factors.consume(tx);
      return inserted;
    });
    await ctx.options.notifier
      ?.addressAdded(userId, row.label, row.network, row.address)
      .catch((error: unknown) => ctx.options.log.warn({ err: error }, 'address-book notification failed'));
    return {
      id: row.id,
      label: row.label,
      network: row.network,
      address: row.address,
      createTime: row.createdAt.toISOString(),
      usableAt: row.usableAt.toISOString(),
    };
  }

  /** @throws DomainError NOT_FOUND when the entry is not the user's. */
  async function deleteAddress(userId: string, id: number): Promise<void> {
    const deleted = await ctx.db
      .delete(addressBook)
      .where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)))
      .returning({ id: addressBook.id });
    if (deleted.length === 0) throw new DomainError('NOT_FOUND');
  }

  return { listAddressBook, addAddress, deleteAddress };
}
