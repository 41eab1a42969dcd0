import type { Locale } from '@meridian/contracts/locale';
import { toDecimalString } from '@meridian/contracts/money';
import {
  shareBpsToPct,
  TRUST_ASSET,
  type Trust,
  type TrustMovement,
  type TrustMovementKind,
  type TrustState,
} from '@meridian/contracts/trust';
import dayjs from 'dayjs';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { trustAccount } from '../ledger/ledger.types.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { type trustMovements, trusts } from './trust.tables.ts';
/** What the trust service needs from other modules (by their services) and the platform. */
export interface TrustServiceDeps {
  db: Db;
  identity: {
    /** ACCOUNT_FROZEN (152) for a frozen account: it moves no money. */
    assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
    /** Last sign-in per user (≤ 500 ids; closed accounts left out). */
    lastSignInAtOf(userIds: readonly string[], db?: DbOrTx): Promise<Map<string, Date>>;
    /** Language and email per user (≤ 500 ids; closed accounts left out). */
    recipientsOf(
      userIds: readonly string[],
      db?: DbOrTx,
    ): Promise<Map<string, { locale: Locale; email: string | null }>>;
  };
  /** In-app messages (up to 500 per call), in the caller's transaction. */
  notifyMany(inputs: NotifyInput[], tx: DbOrTx): Promise<unknown>;
  /** The mail outbox: a row in the caller's transaction, sent after it commits. */
  enqueueMail(message: MailMessage, tx: DbOrTx): Promise<unknown>;
  /** The app's clock (tests pass a fake one). */
  now(): Date;
  log?: { info(detail: object, message: string): void };
}

/**
 * The sensitive-action check a money-moving call runs last (the request's `SensitiveAction`): see
 * `platform/http/auth.ts`. `NO_FACTORS` for callers that are not HTTP requests.
 */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}
export const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

export type TrustRow = typeof trusts.$inferSelect;
type MovementRow = typeof trustMovements.$inferSelect;

/** BTC minor units as wire text. */
export const btc = (minor: bigint) => toDecimalString(minor, TRUST_ASSET);

/** A history row as the API answers it. */
export function toMovement(row: MovementRow): TrustMovement {
  return {
    id: row.id,
    kind: row.kind as TrustMovementKind,
    amount: btc(row.amountMinor),
    fee: btc(row.feeMinor),
    net: btc(row.netMinor),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A trust row as the API answers it, with its holding (BTC minor units). */
export function toTrust(row: TrustRow, holdingMinor: bigint): Trust {
  return {
    id: row.id,
    name: row.name,
    state: row.state as TrustState,
    termMonths: row.termMonths,
    termEndsAt: row.termMonths === null ? null : dayjs(row.createdAt).add(row.termMonths, 'month').toISOString(),
    isRevocable: row.isRevocable,
    inactivityMonths: row.inactivityMonths,
    beneficiaries: row.beneficiaries.map((item) => ({
      name: item.name,
      email: item.email,
      sharePct: shareBpsToPct(item.shareBps),
    })),
    holding: btc(holdingMinor),
    feesPaid: btc(row.feesPaidMinor),
    claimAt: row.claimAt?.toISOString() ?? null,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The settlor's trust `trustId`. @throws DomainError NOT_FOUND when it is not theirs. */
export async function ownTrust(db: DbOrTx, userId: string, trustId: number): Promise<TrustRow> {
  const [row] = await db
    .select()
    .from(trusts)
    .where(and(eq(trusts.id, trustId), eq(trusts.userId, userId)));
  if (!row) throw new DomainError('NOT_FOUND');
  return row;
}

/** What trust `trustId` holds, BTC minor units. */
export function holdingOf(db: DbOrTx, trustId: number): Promise<bigint> {
  return accountBalance(db, trustAccount(trustId, TRUST_ASSET));
}
