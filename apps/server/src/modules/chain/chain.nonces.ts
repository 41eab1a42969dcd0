import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.ts';
import { chainHotWallets, chainWithdrawals } from './chain.tables.ts';
import type { Eip1559Fees } from './chain.fees.ts';
import { type HotWalletSigner, sealedKeySigner } from './chain.signer.ts';

/** A hot wallet row as the sender uses it. */
export type HotWalletRow = typeof chainHotWallets.$inferSelect;

/**
 * The hot wallet of `chainId`, created on first use with `signer` (its address and sealed key).
 * Two processes creating it at once keep the first row (`ON CONFLICT DO NOTHING`); a signer whose
 * address differs from the stored row's is refused.
 * @throws Error when the stored hot wallet has another address than `signer`'s.
 */
export async function ensureHotWallet(db: Db, chainId: number, signer: HotWalletSigner): Promise<HotWalletRow> {
  await db
    .insert(chainHotWallets)
    .values({ chainId, address: signer.address, keySealed: signer.keySealed, nextNonce: 0 })
    .onConflictDoNothing();
  const [row] = await db.select().from(chainHotWallets).where(eq(chainHotWallets.chainId, chainId));
  if (!row || row.address !== signer.address)
    throw new Error(`the hot wallet of chain ${chainId} is ${row?.address}, not the signer's ${signer.address}`);
  return row;
}

/**
 * The signer of `chainId`'s hot wallet over a key sealed with `vaultKey` (CHAIN_VAULT_KEY): the
 * stored row's key, or on first use a new key, sealed and stored (when two processes race, the
 * stored one wins and the other's is dropped unused).
 * @throws Error when the stored key is not sealed with `vaultKey`, or the row has no sealed key (a KMS signs).
 */
export async function openHotWalletSigner(
  db: Db,
  chainId: number,
  vaultKey: string,
): Promise<{ signer: HotWalletSigner; row: HotWalletRow }> {
  const [stored] = await db.select().from(chainHotWallets).where(eq(chainHotWallets.chainId, chainId));
  if (stored && stored.keySealed === null)
    throw new Error(`the hot wallet of chain ${chainId} has no sealed key: configure its KMS signer`);
  const fresh = sealedKeySigner(vaultKey, stored?.keySealed ?? null);
  if (stored) return { signer: fresh, row: await ensureHotWallet(db, chainId, fresh) };
  await db
    .insert(chainHotWallets)
    .values({ chainId, address: fresh.address, keySealed: fresh.keySealed, nextNonce: 0 })
    .onConflictDoNothing();
  const [row] = await db.select().from(chainHotWallets).where(eq(chainHotWallets.chainId, chainId));
  const signer = row!.address === fresh.address ? fresh : sealedKeySigner(vaultKey, row!.keySealed);
  return { signer, row: row! };
}

/** What is recorded with a nonce: the transfer and the fees of its first transaction. */
export interface WithdrawalIntent {
  withdrawalId: number;
  userId: string;
  chainId: number;
  coinCode: string;
  /** ERC-20 contract, or null for ETH. */
  tokenAddress: string | null;
  toAddress: string;
  /** In the token's base units (wei for ETH). */
  amountRaw: bigint;
  gasLimit: bigint;
  fees: Eip1559Fees;
}

/**
 * Record the broadcast intent of one withdrawal with the hot wallet's next nonce, in `tx`: the
 * wallet's row is locked `FOR UPDATE` first, so intents of every process are serialised; a
 * withdrawal that already has an intent takes no nonce (its row is returned unchanged). Otherwise
 * the nonce is `next_nonce`, which moves on by one in the same transaction: a rolled-back intent
 * gives its nonce back, a committed one owns it — never reused, never skipped.
 * @returns the chain withdrawal row (status SIGNED when new) and whether it was created now.
 */
export async function recordIntentInTx(
  tx: Tx,
  hotWalletId: number,
  intent: WithdrawalIntent,
  now: Date,
): Promise<{ row: typeof chainWithdrawals.$inferSelect; isNew: boolean }> {
  const [wallet] = await tx.select().from(chainHotWallets).where(eq(chainHotWallets.id, hotWalletId)).for('update');
  if (!wallet) throw new Error(`hot wallet ${hotWalletId} does not exist`);
  const [existing] = await tx
    .select()
    .from(chainWithdrawals)
    .where(eq(chainWithdrawals.withdrawalId, intent.withdrawalId));
  if (existing) return { row: existing, isNew: false };
  const nonce = wallet.nextNonce;
  await tx
    .update(chainHotWallets)
    .set({ nextNonce: nonce + 1 })
    .where(eq(chainHotWallets.id, hotWalletId));
  const [row] = await tx
    .insert(chainWithdrawals)
    .values({
      withdrawalId: intent.withdrawalId,
      userId: intent.userId,
      chainId: intent.chainId,
      hotWalletId,
      nonce,
      coinCode: intent.coinCode,
      tokenAddress: intent.tokenAddress,
      toAddress: intent.toAddress,
      amountRaw: intent.amountRaw,
      gasLimit: intent.gasLimit,
      maxFeePerGasWei: intent.fees.maxFeePerGasWei,
      maxPriorityFeePerGasWei: intent.fees.maxPriorityFeePerGasWei,
      status: 'SIGNED',
      // The app's clock: the nonce filler measures the row's age from it.
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { row: row!, isNew: true };
}
