import type { Clock } from '../../platform/clock/clock.ts';
import {
  BANK_ACCOUNT_CURRENCY,
  BANK_ACCOUNT_LIMIT,
  DOMESTIC_BANK_COUNTRY,
  holderMatchesVerifiedName,
  type BankAccount,
  type ParsedBankAccountAddBody,
} from '@meridian/contracts/payments';
import type { SensitiveFactors } from '@meridian/contracts/security';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { bankAccounts } from './payments.tables.ts';

/** A new account's fields as the contract parsed them (codes compact and upper case), without the security-check factors. */
export type BankAccountInput = Omit<ParsedBankAccountAddBody, keyof SensitiveFactors | 'iban' | 'accountNumber'> & {
  iban?: string | undefined;
  accountNumber?: string | undefined;
};

/**
 * The sensitive-action check of the request (`platform/http/auth.ts` `SensitiveAction`): `check()`
 * once every other rule passed, `consume(tx)` as the last step of the transaction that makes the
 * change, so one-time codes are used up only when it commits.
 */
export interface BankFactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
}

/** For callers that are not HTTP requests (CLI, tests, other modules): no factor to check. */
const NO_FACTORS: BankFactorCheck = { check: async () => {}, consume: async () => {} };

/** Lock namespace of the per-user bank-account lock (first key of a two-key advisory lock). */
const BANK_ACCOUNT_LOCK_NAMESPACE = 0x4241; // "BA"

/** What the payments service needs of other modules. */
export interface PaymentsServiceDeps {
  db: Db;
  /** The user's verified first and last name, null when basic KYC is not Verified (`KycService.verifiedNameOf`). */
  verifiedNameOf(userId: string, db?: DbOrTx): Promise<{ firstName: string; lastName: string } | null>;
  /** Message the user in their language, in the caller's transaction (notices service). */
  notify(input: NotifyInput, tx: DbOrTx): Promise<unknown>;
  /** The app's clock: when an account was removed. */
  clock: Clock;
}

type BankAccountRow = typeof bankAccounts.$inferSelect;

/** A stored row as the contract's `BankAccount`. */
function toBankAccount(row: BankAccountRow): BankAccount {
  return {
    id: row.id,
    accountHolder: row.accountHolder,
    bankName: row.bankName,
    swiftBic: row.swiftBic,
    iban: row.iban,
    accountNumber: row.accountNumber,
    currency: BANK_ACCOUNT_CURRENCY,
    country: row.country,
    isDomestic: row.country === DOMESTIC_BANK_COUNTRY,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The last four characters of an account number or IBAN, for messages: `•••• 5432`. */
function lastFour(number: string): string {
  return `•••• ${number.slice(-4)}`;
}

/**
 * Bank accounts for USD wires (`docs/payments.md`). The field rules (ISO 9362 BIC and its
 * country, ISO 13616 IBAN where the country uses it, account number elsewhere, USD only) are the
 * contract's and already ran on the request; this service adds the rules that need the database:
 * the holder is the user's verified name, at most `BANK_ACCOUNT_LIMIT` live accounts, no account
 * number twice. Removal is soft (`deleted_at`), and every addition and removal is messaged to the
 * user (category SECURITY).
 */
export class PaymentsService {
  constructor(private readonly deps: PaymentsServiceDeps) {}

  /** The user's bound (not removed) accounts, newest first (at most `BANK_ACCOUNT_LIMIT`, as adding keeps it). */
  async listBankAccounts(userId: string): Promise<BankAccount[]> {
    const rows = await this.deps.db
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.userId, userId), isNull(bankAccounts.deletedAt)))
      .orderBy(desc(bankAccounts.id))
      .limit(BANK_ACCOUNT_LIMIT);
    return rows.map(toBankAccount);
  }

  /**
   * Bind an account (the route ran the BANK_ACCOUNT_ADD check: `factors` is checked after every
   * rule passed and used up in the insert's transaction). The per-user advisory lock makes two
   * concurrent additions count each other.
   * @throws FieldError `accountHolder` (not the verified name, or no verified name), `accountNumber`
   *   (already bound); DomainError BANK_ACCOUNT_LIMIT_REACHED (`{limit}`) with 5 live accounts.
   */
  async addBankAccount(
    userId: string,
    input: BankAccountInput,
    factors: BankFactorCheck = NO_FACTORS,
  ): Promise<BankAccount> {
    const verified = await this.deps.verifiedNameOf(userId);
    if (!verified) throw new FieldError('accountHolder', 'validation.accountHolderUnverified');
    if (!holderMatchesVerifiedName(input.accountHolder, verified))
      throw new FieldError('accountHolder', 'validation.accountHolderName', {
        name: `${verified.firstName} ${verified.lastName}`.trim(),
      });
    const accountNumber = input.iban ?? input.accountNumber;
    // The contract requires one of the two; a caller outside HTTP gets the same field error.
    if (accountNumber === undefined) throw new FieldError('accountNumber', 'validation.accountNumberRequired');
    const field = input.iban === undefined ? 'accountNumber' : 'iban';
    await this.checkRoom(this.deps.db, userId, accountNumber, field);
    await factors.check();
    const row = await this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${BANK_ACCOUNT_LOCK_NAMESPACE}, hashtext(${userId}))`);
      await this.checkRoom(tx, userId, accountNumber, field);
      const [inserted] = await tx
        .insert(bankAccounts)
        .values({
          userId,
          accountHolder: input.accountHolder,
          bankName: input.bankName,
          swiftBic: input.swiftBic,
          iban: input.iban ?? null,
          accountNumber,
          currency: BANK_ACCOUNT_CURRENCY,
          country: input.country,
        })
        .returning();
      await this.deps.notify(
        {
          userId,
          category: 'SECURITY',
          title: { 'en-US': 'Bank account added', 'zh-HK': '已新增銀行帳戶' },
          body: {
            'en-US':
              'The bank account {number} at {bank} was added for USD wires. If this was not you, change your password and contact support.',
            'zh-HK': '{bank} 的銀行帳戶 {number} 已新增作美元電匯之用。如非本人操作，請立即更改密碼並聯絡客服。',
          },
          params: { number: lastFour(accountNumber), bank: input.bankName },
          link: '/my/payment/bank',
        },
        tx,
      );
      await factors.consume(tx);
      return inserted!;
    });
    return toBankAccount(row);
  }

  /**
   * Remove an account (the route ran the BANK_ACCOUNT_DELETE check): the row is kept with
   * `deleted_at` set, so wires that name it keep their history.
   * @throws DomainError NOT_FOUND when the account is not the user's or already removed.
   */
  async deleteBankAccount(userId: string, id: number, factors: BankFactorCheck = NO_FACTORS): Promise<void> {
    if (!(await this.findBankAccount(userId, id))) throw new DomainError('NOT_FOUND');
    await factors.check();
    await this.deps.db.transaction(async (tx) => {
      const [removed] = await tx
        .update(bankAccounts)
        .set({ deletedAt: this.deps.clock.now() })
        .where(and(eq(bankAccounts.id, id), eq(bankAccounts.userId, userId), isNull(bankAccounts.deletedAt)))
        .returning();
      if (!removed) throw new DomainError('NOT_FOUND');
      await this.deps.notify(
        {
          userId,
          category: 'SECURITY',
          title: { 'en-US': 'Bank account removed', 'zh-HK': '已移除銀行帳戶' },
          body: {
            'en-US': 'The bank account {number} at {bank} was removed. If this was not you, contact support.',
            'zh-HK': '{bank} 的銀行帳戶 {number} 已移除。如非本人操作，請聯絡客服。',
          },
          params: { number: lastFour(removed.accountNumber), bank: removed.bankName },
          link: '/my/payment/bank',
        },
        tx,
      );
      await factors.consume(tx);
    });
  }

  /**
   * One of the user's accounts, for the funds module (a redemption by wire names it): null when it
   * is not the user's, or was removed — unless `options.includeRemoved`, for a wire already under
   * way to an account removed since. Read on `tx` when given.
   */
  async findBankAccount(
    userId: string,
    bankAccountId: number,
    tx?: DbOrTx,
    options: { includeRemoved?: boolean } = {},
  ): Promise<BankAccount | null> {
    const [row] = await (tx ?? this.deps.db)
      .select()
      .from(bankAccounts)
      .where(
        and(
          eq(bankAccounts.id, bankAccountId),
          eq(bankAccounts.userId, userId),
          options.includeRemoved ? undefined : isNull(bankAccounts.deletedAt),
        ),
      )
      .limit(1);
    return row ? toBankAccount(row) : null;
  }

  /**
   * Refuse a sixth live account, or a live account with the same number.
   * @throws DomainError BANK_ACCOUNT_LIMIT_REACHED; FieldError `field` validation.bankAccountDuplicate.
   */
  private async checkRoom(db: DbOrTx, userId: string, accountNumber: string, field: string): Promise<void> {
    const live = and(eq(bankAccounts.userId, userId), isNull(bankAccounts.deletedAt));
    const [total] = await db.select({ n: count() }).from(bankAccounts).where(live);
    if ((total?.n ?? 0) >= BANK_ACCOUNT_LIMIT)
      throw new DomainError('BANK_ACCOUNT_LIMIT_REACHED', { limit: BANK_ACCOUNT_LIMIT });
    const [same] = await db
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(and(live, eq(bankAccounts.accountNumber, accountNumber)))
      .limit(1);
    if (same) throw new FieldError(field, 'validation.bankAccountDuplicate');
  }
}
