import type { AssetCode } from '@meridian/contracts/money';
import type { ParsedCustodyWebhookBody } from '@meridian/contracts/wallet';
import { custodyDeliveries } from './wallet.tables.ts';
import { notifyWithdrawal, type WalletContext, type WithdrawalRow } from './wallet.internal.ts';
import { completeInTx, failInTx } from './wallet.transitions.ts';
import type { DepositsPart } from './wallet.deposits.ts';

/** The custody webhook: deposits it reports and the results of OUTER withdrawals. */
export function createCustodyService(
  ctx: WalletContext,
  depositsPart: Pick<DepositsPart, 'recordDepositInTx' | 'notifyDepositCredited'>,
) {
  /**
   * Apply one verified custody delivery (the route checked the HMAC and the timestamp). In one
   * transaction: record the delivery id (a repeat does nothing), then the event.
   *
   * Deposit: refused (nothing recorded) for a disabled coin/network, an unknown address, or a
   * non-positive or over-precise amount. Otherwise the transfer is recorded once per (network,
   * txHash, outputIndex) as PENDING, its confirmations kept at the highest reported, and credited
   * exactly once — one DEPOSIT entry hot wallet → user — when they reach the network's requirement.
   *
   * Withdrawal: moves an OUTER withdrawal to success (with its txHash) or failure (funds returned).
   */
  async function handleCustodyDelivery(
    body: ParsedCustodyWebhookBody,
  ): Promise<{ isDuplicateDelivery: boolean; depositId: string | null; status: string | null }> {
    let credited: { userId: string; coinCode: AssetCode; amount: string } | undefined;
    let moved: WithdrawalRow | undefined;
    const result = await ctx.db.transaction(async (tx) => {
      const [delivery] = await tx
        .insert(custodyDeliveries)
        .values({ deliveryId: body.deliveryId })
        .onConflictDoNothing()
        .returning();
      if (!delivery) return { isDuplicateDelivery: true, depositId: null, status: null };
      const event = body.event;
      if (event.type === 'withdrawal') {
        const id = Number(event.withdrawalId);
        const row =
          event.result === 'success'
            ? await completeInTx(ctx, tx, id, event.txHash ?? null, null, [0, 1])
            : await failInTx(ctx, tx, id, event.reason ?? 'reported by custody', null, [0, 1]);
        moved = row;
        return { isDuplicateDelivery: false, depositId: null, status: String(row.status) };
      }
      const recorded = await depositsPart.recordDepositInTx(tx, {
        network: event.network,
        coin: event.coin,
        address: event.address,
        txHash: event.txHash,
        outputIndex: event.outputIndex,
        amountMinor: event.amountMinor,
        confirmations: event.confirmations,
        fromAddress: event.fromAddress,
      });
      if (recorded.isCreditedNow) credited = recorded;
      return { isDuplicateDelivery: false, depositId: String(recorded.row.id), status: recorded.row.status };
    });
    if (credited) await depositsPart.notifyDepositCredited(credited);
    if (moved) await notifyWithdrawal(ctx, moved);
    return result;
  }

  return { handleCustodyDelivery };
}
