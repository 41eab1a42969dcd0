import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import type {
  IncomingWire,
  IncomingWireStatus,
  OutgoingWire,
  OutgoingWireStatus,
  ParsedRecordWireBody,
} from '@meridian/contracts/fund-wires';
import { type Page, type PageQuery, totalPages } from '@meridian/contracts/pagination';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { type FundsContext, lockCurrentHolding, moveCurrentHolding, usd } from './funds.internal.ts';
import { fundOrders, fundWiresIn, fundWiresOut } from './funds.tables.ts';

type WireInRow = typeof fundWiresIn.$inferSelect;
type WireOutRow = typeof fundWiresOut.$inferSelect;

/** Why a received wire went to suspense. */
export type SuspenseReason = 'unknown_reference' | 'order_not_pending' | 'amount_mismatch';

function toIncoming(row: WireInRow, isDuplicate: boolean): IncomingWire {
  return {
    id: String(row.id),
    reference: row.reference,
    bankTransactionId: row.bankTransactionId,
    amount: usd(row.amountMinor),
    sender: row.sender,
    status: row.status,
    suspenseReason: row.suspenseReason,
    orderId: row.orderId === null ? null : String(row.orderId),
    recordedBy: row.recordedBy,
    createdAt: row.createdAt.toISOString(),
    resolvedBy: row.resolvedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolutionNote: row.resolutionNote,
    isDuplicate,
  };
}

function toOutgoing(row: WireOutRow): OutgoingWire {
  return {
    id: String(row.id),
    orderId: String(row.orderId),
    userId: row.userId,
    reference: row.reference,
    amount: usd(row.amountMinor),
    bankAccountId: row.bankAccountId,
    bankAccount: row.bankAccount,
    status: row.status,
    note: row.note,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** USD wires in and out (finance operators): parts of `createFundsService`. */
export function createWiresService(ctx: FundsContext) {
  async function existingByBankTransaction(bankTransactionId: string): Promise<WireInRow | undefined> {
    const [row] = await ctx.db.select().from(fundWiresIn).where(eq(fundWiresIn.bankTransactionId, bankTransactionId));
    return row;
  }

  /**
   * Record a USD wire received on Meridian's account (`POST admin/wires`, `npm run ops -- wires
   * record`). In one transaction: a wire whose `reference` names a PENDING USD subscription of the
   * same amount credits it — the order becomes SUCCESS, its shares are added to the user's current
   * holding (earning from the next day) and one journal entry moves bank → USER_FUND; any other
   * wire (unknown reference, order no longer pending, other amount) goes to SUSPENSE (bank →
   * suspense), never lost, for an operator to resolve. The bank's transaction id is unique: the same
   * wire recorded twice answers the first record (`isDuplicate`), credited once.
   */
  async function recordWire(operatorEmail: string, body: ParsedRecordWireBody): Promise<IncomingWire> {
    const earlier = await existingByBankTransaction(body.bankTransactionId);
    if (earlier) return toIncoming(earlier, true);
    const amountMinor: bigint = body.amount;
    const now = ctx.clock.now();
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const [order] = await tx
          .select()
          .from(fundOrders)
          .where(and(eq(fundOrders.reference, body.reference), eq(fundOrders.action, 'SUBSCRIBE')))
          .for('update');
        let reason: SuspenseReason | null = null;
        if (!order) reason = 'unknown_reference';
        else if (order.status !== 'PENDING') reason = 'order_not_pending';
        else if (order.amountMinor !== amountMinor) reason = 'amount_mismatch';
        const [wire] = await tx
          .insert(fundWiresIn)
          .values({
            reference: body.reference,
            bankTransactionId: body.bankTransactionId,
            amountMinor,
            sender: body.sender,
            status: reason ? 'SUSPENSE' : 'CREDITED',
            suspenseReason: reason,
            orderId: reason ? null : order!.id,
            recordedBy: operatorEmail,
            createdAt: now,
          })
          .returning();
        if (reason) {
          await postEntry(tx, {
            kind: 'FUND_WIRE_IN',
            reference: `fund-wire-in:${wire!.id}`,
            idempotencyKey: `fund-wire-in:${wire!.id}`,
            postings: transfer(
              platformAccount('PLATFORM_BANK', 'USD'),
              platformAccount('SUSPENSE', 'USD'),
              amountMinor,
            ),
            metadata: { reference: body.reference, reason },
          });
          return wire!;
        }
        await lockCurrentHolding(tx, order!.userId, now);
        await moveCurrentHolding(tx, order!.userId, order!.productId, amountMinor, now);
        await tx.update(fundOrders).set({ status: 'SUCCESS', completedAt: now }).where(eq(fundOrders.id, order!.id));
        await postEntry(tx, {
          kind: 'FUND_WIRE_IN',
          reference: `fund-order:${order!.id}`,
          idempotencyKey: `fund-order:${order!.id}:wire-in`,
          postings: transfer(
            platformAccount('PLATFORM_BANK', 'USD'),
            userAccount(order!.userId, 'USER_FUND', 'USD'),
            amountMinor,
          ),
          metadata: { reference: body.reference, wireId: String(wire!.id) },
        });
        // The user's message commits with the credit (docs/notices.md "Money events").
        await ctx.notifier.wireCredited(order!.userId, usd(amountMinor), tx);
        return wire!;
      });
      ctx.log.info(
        { wireId: row.id, reference: row.reference, status: row.status, reason: row.suspenseReason },
        'fund wire recorded',
      );
      return toIncoming(row, false);
    } catch (error) {
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) {
        const raced = await existingByBankTransaction(body.bankTransactionId);
        if (raced) return toIncoming(raced, true);
      }
      throw error;
    }
  }

  /**
   * Decide a PENDING outgoing wire once (conditional update): SENT moves the frozen shares to the
   * bank (USER_FUND_FROZEN → bank) and completes the redemption; FAILED returns them to the user's
   * current fund (USER_FUND_FROZEN → USER_FUND, the holding credited).
   * @throws DomainError NOT_FOUND; WIRE_STATE_CHANGED (170) when it is no longer pending.
   */
  async function decideOutgoing(
    id: string,
    operatorEmail: string,
    status: Exclude<OutgoingWireStatus, 'PENDING'>,
    note: string | null,
  ): Promise<OutgoingWire> {
    const wireId = Number(id);
    const now = ctx.clock.now();
    const row = await ctx.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(fundWiresOut).where(eq(fundWiresOut.id, wireId));
      if (!existing) throw new DomainError('NOT_FOUND');
      if (status === 'FAILED') await lockCurrentHolding(tx, existing.userId, now);
      const [updated] = await tx
        .update(fundWiresOut)
        .set({ status, note, decidedBy: operatorEmail, decidedAt: ctx.clock.now() })
        .where(and(eq(fundWiresOut.id, wireId), eq(fundWiresOut.status, 'PENDING')))
        .returning();
      if (!updated) throw new DomainError('WIRE_STATE_CHANGED');
      const frozen = userAccount(updated.userId, 'USER_FUND_FROZEN', 'USD');
      if (status === 'SENT') {
        await postEntry(tx, {
          kind: 'FUND_WIRE_OUT',
          reference: `fund-order:${updated.orderId}`,
          idempotencyKey: `fund-order:${updated.orderId}:wire-sent`,
          postings: transfer(frozen, platformAccount('PLATFORM_BANK', 'USD'), updated.amountMinor),
        });
      } else {
        await moveCurrentHolding(tx, updated.userId, CURRENT_PRODUCT_ID, updated.amountMinor, now);
        await postEntry(tx, {
          kind: 'FUND_WIRE_OUT',
          reference: `fund-order:${updated.orderId}`,
          idempotencyKey: `fund-order:${updated.orderId}:wire-returned`,
          postings: transfer(frozen, userAccount(updated.userId, 'USER_FUND', 'USD'), updated.amountMinor),
        });
      }
      await tx
        .update(fundOrders)
        .set({ status: status === 'SENT' ? 'SUCCESS' : 'FAILED', completedAt: ctx.clock.now() })
        .where(eq(fundOrders.id, updated.orderId));
      await ctx.notifier.wireDecided(updated.userId, usd(updated.amountMinor), status === 'SENT', tx);
      return updated;
    });
    return toOutgoing(row);
  }

  /**
   * Take a SUSPENSE wire for resolution: locks it and refuses any other state.
   * @throws DomainError NOT_FOUND; WIRE_STATE_CHANGED (170) when it is no longer in suspense.
   */
  async function lockSuspenseWire(tx: DbOrTx, id: string): Promise<WireInRow> {
    const [wire] = await tx
      .select()
      .from(fundWiresIn)
      .where(eq(fundWiresIn.id, Number(id)))
      .for('update');
    if (!wire) throw new DomainError('NOT_FOUND');
    if (wire.status !== 'SUSPENSE') throw new DomainError('WIRE_STATE_CHANGED');
    return wire;
  }

  /**
   * Finance applies a wire held in suspense to the PENDING USD subscription `reference` names (the
   * sender misspelt or left out the reference): in one transaction the wire becomes CREDITED with
   * the resolution, the order SUCCESS, the shares join the user's current holding, and one journal
   * entry moves suspense → USER_FUND (`fund-order:<id>:wire-in`, so an order is paid once whichever
   * way its wire arrived). The user gets the same message as for a wire credited on arrival.
   * @throws DomainError NOT_FOUND; WIRE_STATE_CHANGED (170) when the wire is no longer in suspense;
   *   WIRE_ORDER_MISMATCH (171) when the reference names no pending USD subscription of the wire's amount.
   */
  async function applySuspenseWire(
    id: string,
    operatorEmail: string,
    body: { reference: string; note: string },
  ): Promise<IncomingWire> {
    const now = ctx.clock.now();
    const { row } = await ctx.db.transaction(async (tx) => {
      const wire = await lockSuspenseWire(tx, id);
      const [order] = await tx
        .select()
        .from(fundOrders)
        .where(and(eq(fundOrders.reference, body.reference), eq(fundOrders.action, 'SUBSCRIBE')))
        .for('update');
      if (!order || order.status !== 'PENDING' || order.amountMinor !== wire.amountMinor) {
        throw new DomainError('WIRE_ORDER_MISMATCH', { reference: body.reference, amount: usd(wire.amountMinor) });
      }
      await lockCurrentHolding(tx, order.userId, now);
      await moveCurrentHolding(tx, order.userId, order.productId, wire.amountMinor, now);
      await tx.update(fundOrders).set({ status: 'SUCCESS', completedAt: now }).where(eq(fundOrders.id, order.id));
      const [updated] = await tx
        .update(fundWiresIn)
        .set({
          status: 'CREDITED',
          orderId: order.id,
          resolvedBy: operatorEmail,
          resolvedAt: now,
          resolutionNote: body.note,
        })
        .where(eq(fundWiresIn.id, wire.id))
        .returning();
      await postEntry(tx, {
        kind: 'FUND_WIRE_IN',
        reference: `fund-order:${order.id}`,
        idempotencyKey: `fund-order:${order.id}:wire-in`,
        postings: transfer(
          platformAccount('SUSPENSE', 'USD'),
          userAccount(order.userId, 'USER_FUND', 'USD'),
          wire.amountMinor,
        ),
        metadata: { reference: body.reference, wireId: String(wire.id), resolvedBy: operatorEmail },
      });
      await ctx.notifier.wireCredited(order.userId, usd(updated!.amountMinor), tx);
      return { row: updated!, userId: order.userId };
    });
    ctx.log.info({ wireId: row.id, orderId: row.orderId, operator: operatorEmail }, 'fund wire applied from suspense');
    return toIncoming(row, false);
  }

  /**
   * Finance sends a wire held in suspense back to its sender: the wire becomes RETURNED with the
   * reason and one journal entry moves suspense → bank (`fund-wire-in:<id>:returned`).
   * @throws DomainError NOT_FOUND; WIRE_STATE_CHANGED (170) when the wire is no longer in suspense.
   */
  async function returnSuspenseWire(id: string, operatorEmail: string, note: string): Promise<IncomingWire> {
    const now = ctx.clock.now();
    const row = await ctx.db.transaction(async (tx) => {
      const wire = await lockSuspenseWire(tx, id);
      const [updated] = await tx
        .update(fundWiresIn)
        .set({ status: 'RETURNED', resolvedBy: operatorEmail, resolvedAt: now, resolutionNote: note })
        .where(eq(fundWiresIn.id, wire.id))
        .returning();
      await postEntry(tx, {
        kind: 'FUND_WIRE_IN',
        reference: `fund-wire-in:${wire.id}`,
        idempotencyKey: `fund-wire-in:${wire.id}:returned`,
        postings: transfer(
          platformAccount('SUSPENSE', 'USD'),
          platformAccount('PLATFORM_BANK', 'USD'),
          wire.amountMinor,
        ),
        metadata: { reference: wire.reference, resolvedBy: operatorEmail },
      });
      return updated!;
    });
    ctx.log.info({ wireId: row.id, operator: operatorEmail }, 'fund wire returned from suspense');
    return toIncoming(row, false);
  }

  return {
    recordWire,
    applySuspenseWire,
    returnSuspenseWire,

    /** Received wires, newest first, optionally of one status. */
    async listWires(query: PageQuery & { status?: IncomingWireStatus }): Promise<Page<IncomingWire>> {
      const where = query.status ? eq(fundWiresIn.status, query.status) : undefined;
      const [total] = await ctx.db.select({ n: count() }).from(fundWiresIn).where(where);
      const rows = await ctx.db
        .select()
        .from(fundWiresIn)
        .where(where)
        .orderBy(desc(fundWiresIn.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map((row) => toIncoming(row, false)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /** Outgoing wires, oldest first, optionally of one status. */
    async listOutgoingWires(query: PageQuery & { status?: OutgoingWireStatus }): Promise<Page<OutgoingWire>> {
      const where = query.status ? eq(fundWiresOut.status, query.status) : undefined;
      const [total] = await ctx.db.select({ n: count() }).from(fundWiresOut).where(where);
      const rows = await ctx.db
        .select()
        .from(fundWiresOut)
        .where(where)
        .orderBy(asc(fundWiresOut.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map(toOutgoing),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /** Mark an outgoing wire sent. @throws DomainError NOT_FOUND, WIRE_STATE_CHANGED (170). */
    markWireSent: (id: string, operatorEmail: string, note?: string) =>
      decideOutgoing(id, operatorEmail, 'SENT', note ?? null),

    /** Mark an outgoing wire failed: the shares return. @throws DomainError NOT_FOUND, WIRE_STATE_CHANGED (170). */
    markWireFailed: (id: string, operatorEmail: string, note: string) =>
      decideOutgoing(id, operatorEmail, 'FAILED', note),
  };
}
