import type { WithdrawStatus } from '@meridian/contracts/wallet';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { withdrawals } from './wallet.tables.ts';
import { asAsset, type WalletContext, type WithdrawalRow } from './wallet.internal.ts';

/**
 * Move an OUTER withdrawal from one of `from` to `to` — one conditional UPDATE, so a transition
 * happens at most once — and post its entry (if any) in the same transaction.
 * @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when it is not in a `from` state.
 */
export async function transition(
  ctx: WalletContext,
  tx: Tx,
  id: number,
  from: WithdrawStatus[],
  to: WithdrawStatus,
  set: Partial<Pick<WithdrawalRow, 'txHash' | 'failureReason' | 'operatorEmail'>>,
  entryOf: (w: WithdrawalRow) => EntryInput | null,
  ownerId?: string,
): Promise<WithdrawalRow> {
  const conditions: SQL[] = [eq(withdrawals.id, id), eq(withdrawals.type, 'OUTER'), inArray(withdrawals.status, from)];
  if (ownerId) conditions.push(eq(withdrawals.userId, ownerId));
  const [moved] = await tx
    .update(withdrawals)
    .set({ ...set, status: to, updatedAt: ctx.now() })
    .where(and(...conditions))
    .returning();
  if (!moved) {
    const [existing] = await tx
      .select()
      .from(withdrawals)
      .where(ownerId ? and(eq(withdrawals.id, id), eq(withdrawals.userId, ownerId)) : eq(withdrawals.id, id));
    if (!existing) throw new DomainError('NOT_FOUND');
    throw new DomainError('WITHDRAW_STATE_CHANGED', {}, { status: existing.status });
  }
  const entry = entryOf(moved);
  if (entry) await postEntry(tx, entry);
  return moved;
}

/** The entry that gives back a withdrawal's frozen amount + fee to the owner's available balance. */
export function returnEntry(w: WithdrawalRow, kindOfReturn: 'cancel' | 'failure'): EntryInput {
  const asset = asAsset(w.coinCode);
  return {
    kind: 'WITHDRAWAL_RETURN',
    reference: `withdrawal:${w.id}`,
    idempotencyKey: `withdrawal:${w.id}:return`,
    postings: transfer(
      userAccount(w.userId, 'USER_FROZEN', asset),
      userAccount(w.userId, 'USER_AVAILABLE', asset),
      w.amountMinor + w.feeMinor,
    ),
    metadata: { reason: kindOfReturn },
  };
}

/**
 * In `tx`: an OUTER withdrawal in one of `from` → 2 success with `txHash`; the frozen amount leaves to
 * the hot wallet and the fee is earned. @throws as `transition`.
 */
export async function completeInTx(
  ctx: WalletContext,
  tx: Tx,
  id: number,
  txHash: string | null,
  operatorEmail: string | null,
  from: WithdrawStatus[],
): Promise<WithdrawalRow> {
  return transition(ctx, tx, id, from, 2, { txHash, ...(operatorEmail ? { operatorEmail } : {}) }, (w) => {
    const asset = asAsset(w.coinCode);
    const frozen = userAccount(w.userId, 'USER_FROZEN', asset);
    const postings = [
      { account: frozen, amountMinor: -(w.amountMinor + w.feeMinor) },
      { account: platformAccount('PLATFORM_HOT_WALLET', asset), amountMinor: w.amountMinor },
    ];
    if (w.feeMinor > 0n) postings.push({ account: platformAccount('PLATFORM_FEES', asset), amountMinor: w.feeMinor });
    return {
      kind: 'WITHDRAWAL_SETTLE',
      reference: `withdrawal:${w.id}`,
      idempotencyKey: `withdrawal:${w.id}:settle`,
      postings,
      metadata: { txHash: txHash ?? '' },
    };
  });
}

/**
 * In `tx`: an OUTER withdrawal in one of `from` → 3 failure with `reason`; amount + fee back to
 * available. @throws as `transition`.
 */
export async function failInTx(
  ctx: WalletContext,
  tx: Tx,
  id: number,
  reason: string,
  operatorEmail: string | null,
  from: WithdrawStatus[],
): Promise<WithdrawalRow> {
  return transition(ctx, tx, id, from, 3, { failureReason: reason, ...(operatorEmail ? { operatorEmail } : {}) }, (w) =>
    returnEntry(w, 'failure'),
  );
}
