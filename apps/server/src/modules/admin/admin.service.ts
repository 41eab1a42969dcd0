import type { Page } from '@meridian/contracts/pagination';
import type { OperatorRole } from '@meridian/contracts/operators';
import type { AuditEntry } from '@meridian/contracts/back-office';
import type { Db } from '../../platform/db/client.ts';
import type { OperatorContext } from '../../platform/http/auth.ts';
import type { OpsWithdrawal, WalletService } from '../wallet/wallet.service.ts';
import type { OperatorAccess } from './admin.access.ts';
import type { ManualAdjustments } from './admin.adjustments.ts';
import { type AuditFilter, exportAuditCsv, searchAudit } from './admin.audit.ts';

export { OPERATOR_ROLES, type Operator, type OperatorRole } from './admin.types.ts';

/**
 * The back office: operator accounts and access (`OperatorAccess`), and the operators'
 * withdrawal transitions, which are the wallet's (`WalletService.processWithdrawal` …): this
 * service calls them with the operator's email, which the wallet keeps on the row.
 */
export class AdminService {
  constructor(
    private readonly db: Db,
    readonly access: OperatorAccess,
    private readonly wallet: WalletService,
    /** Manual adjustments with four eyes (tests and CLIs reach them here). */
    readonly adjustments: ManualAdjustments,
    /** The audit log's reads, which may lag (the replica when one is configured, `Database.reads`). */
    private readonly reads: Db = db,
  ) {}

  /**
   * Create (or re-key) an operator: its temporary password (for the back-office sign-in, where TOTP
   * enrolment follows) and its script token (`OPS_TOKEN` for `npm run ops`), both shown once.
   */
  async createOperator(email: string, role: OperatorRole) {
    return this.access.createOperator(email, role);
  }

  /** A page of the audit log, newest first (see `searchAudit`). */
  async searchAudit(query: AuditFilter & { pageID: number; pageSize: number }): Promise<Page<AuditEntry>> {
    return searchAudit(this.reads, query);
  }

  /** The audit log as CSV (see `exportAuditCsv`). */
  async exportAuditCsv(filter: AuditFilter): Promise<string> {
    return exportAuditCsv(this.reads, filter);
  }

  /** Withdrawals, newest first, optionally of one status, one page. */
  async listWithdrawals(query: { pageID: number; pageSize: number; status?: number }): Promise<Page<OpsWithdrawal>> {
    return this.wallet.listForOperators(query);
  }

  /** 0 waiting → 1 processing. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async processWithdrawal(operator: OperatorContext, id: number): Promise<OpsWithdrawal> {
    return this.wallet.processWithdrawal(operator.email, id);
  }

  /** 1 processing → 2 success with the chain's `txHash`. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async completeWithdrawal(operator: OperatorContext, id: number, txHash: string): Promise<OpsWithdrawal> {
    return this.wallet.completeWithdrawal(operator.email, id, txHash);
  }

  /** 0 or 1 → 3 failure, funds returned. @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138). */
  async failWithdrawal(operator: OperatorContext, id: number, reason: string): Promise<OpsWithdrawal> {
    return this.wallet.failWithdrawal(operator.email, id, reason);
  }
}
