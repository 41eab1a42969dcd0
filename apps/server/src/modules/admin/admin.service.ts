import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@meridian/contracts/pagination';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { OpsWithdrawal, WalletService } from '../wallet/wallet.service.ts';
import { operators } from './admin.tables.ts';
import { OPERATOR_ROLES, type Operator, type OperatorRole } from './admin.types.ts';

export { OPERATOR_ROLES, type Operator, type OperatorRole } from './admin.types.ts';

/** SHA-256 (hex) of a bearer token: the only form of it the database holds. */
function tokenHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Create (or re-key) an operator and return its bearer token, shown once: only its SHA-256 is
 * stored. Used by `npm run ops -- operators add` with the database opened directly.
 */
export async function createOperator(
  db: DbOrTx,
  email: string,
  role: OperatorRole,
): Promise<{ operator: Operator; token: string }> {
  const token = `mop_${randomBytes(32).toString('base64url')}`;
  const tokenHash = tokenHashOf(token);
  const [row] = await db
    .insert(operators)
    .values({ email: email.trim().toLowerCase(), role, tokenHash })
    .onConflictDoUpdate({ target: operators.email, set: { role, tokenHash, isActive: true } })
    .returning();
  return { operator: { id: row!.id, email: row!.email, role }, token };
}

/**
 * The back office: operators (bearer-token accounts with one role) and what they do. The
 * withdrawal transitions are the wallet's (`WalletService.processWithdrawal` …): this service
 * calls them with the operator's email, which the wallet keeps on the row for the audit trail.
 */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly wallet: WalletService,
  ) {}

  /** Create an operator and return its bearer token (see `createOperator`). */
  async createOperator(email: string, role: OperatorRole): Promise<{ operator: Operator; token: string }> {
    return createOperator(this.db, email, role);
  }

  /** The active operator holding `token`, or undefined (unknown, deactivated, or an unknown role). */
  async authenticateOperator(token: string): Promise<Operator | undefined> {
    const [row] = await this.db
      .select()
      .from(operators)
      .where(and(eq(operators.tokenHash, tokenHashOf(token)), eq(operators.isActive, true)));
    if (!row || !(OPERATOR_ROLES as readonly string[]).includes(row.role)) return undefined;
    return { id: row.id, email: row.email, role: row.role as OperatorRole };
  }

  /**
   * The operator of a request's `authorization: Bearer <token>` header, if its role is one of
   * `roles` ('admin' may do everything): the check of every operator route (other modules' too).
   * @throws DomainError LOGIN_EXPIRED (no or unknown token), FORBIDDEN (a role that may not).
   */
  async authorizeOperator(authorizationHeader: string | undefined, roles: readonly OperatorRole[]): Promise<Operator> {
    const token =
      typeof authorizationHeader === 'string' && authorizationHeader.startsWith('Bearer ')
        ? authorizationHeader.slice(7).trim()
        : '';
    const operator = token ? await this.authenticateOperator(token) : undefined;
    if (!operator) throw new DomainError('LOGIN_EXPIRED');
    if (operator.role !== 'admin' && !roles.includes(operator.role)) throw new DomainError('FORBIDDEN');
    return operator;
  }

  /** Withdrawals, newest first, optionally of one status (spec §4 withdraw status), one page. */
  async listWithdrawals(query: { pageID: number; pageSize: number; status?: number }): Promise<Page<OpsWithdrawal>> {
    return this.wallet.listForOperators(query);
  }

  /** 0 waiting → 1 processing. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async processWithdrawal(operator: Operator, id: number): Promise<OpsWithdrawal> {
    return this.wallet.processWithdrawal(operator.email, id);
  }

  /** 1 processing → 2 success with the chain's `txHash`. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async completeWithdrawal(operator: Operator, id: number, txHash: string): Promise<OpsWithdrawal> {
    return this.wallet.completeWithdrawal(operator.email, id, txHash);
  }

  /** 0 or 1 → 3 failure, funds returned. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async failWithdrawal(operator: Operator, id: number, reason: string): Promise<OpsWithdrawal> {
    return this.wallet.failWithdrawal(operator.email, id, reason);
  }
}
