export { OPERATOR_ROLES, type OperatorRole } from '@meridian/contracts/operators';
import type { OperatorRole } from '@meridian/contracts/operators';
import type { ZodType } from 'zod';
import type { DbOrTx } from '../../platform/db/client.ts';

/** A back-office operator, as authenticated by its session or bearer token. */
export interface Operator {
  id: number;
  email: string;
  role: OperatorRole;
}

/**
 * Who proposes or decides a settings change: the signed-in operator (`currentOperator(request)`).
 * The id is what four eyes compares, the role what a kind's `proposerRoles` / `approverRoles` allow.
 */
export interface SettingsOperator {
  id: number;
  email: string;
  role: OperatorRole;
}

/** What a registered kind's lock, read and apply run in: a transaction (or the database). */
export type SettingsTx = DbOrTx;

/**
 * One kind of four-eyes setting, registered with the settings workflow by the module that owns the
 * values (docs/back-office.md "Four eyes"). `T` is the kind's values as stored in a proposal's
 * `before` / `after` (JSON: strings for amounts and percentages, never JS numbers for money).
 */
export interface SettingKind<T> {
  /** `<module>.<name>`, unique ('loans.riskLevels', 'cards.fees', 'network.withdrawFee'). */
  kind: string;
  /** Reads stored `before` / `after` JSON back as `T` (older rows may lack optional keys). */
  valuesSchema: ZodType<T>;
  /** Roles that may propose (the endpoint's roles still gate the call first). */
  proposerRoles: readonly OperatorRole[];
  /** Roles that may approve or reject; the proposer never approves their own change. */
  approverRoles: readonly OperatorRole[];
  /** Serialise every change of `targetKey` until `tx` ends (a row lock or an advisory lock). */
  lock: (tx: SettingsTx, targetKey: string) => Promise<void>;
  /** The current values of `targetKey` in the proposal's shape, or null when the target is gone. */
  read: (tx: SettingsTx, targetKey: string) => Promise<T | null>;
  /** The proposed values as they are stored (trailing zeros dropped, say). */
  normalise?: (after: T) => T;
  /** True when `current` still equals a proposal's `before` (keys `before` lacks are not compared). */
  isSame: (current: T, before: T) => boolean;
  /** Write `after` in the owning module, inside the approval's transaction. */
  apply: (tx: SettingsTx, targetKey: string, after: T) => Promise<void>;
  /** The current values in a SETTING_CHANGE_STALE (176) message. */
  describe: (current: T) => string;
}

/** 'proposed' | 'applied' | 'rejected'; moves only from 'proposed', once. */
export type SettingProposalStatus = 'proposed' | 'applied' | 'rejected';

/** A row of the one table of proposed settings changes (`setting_changes`). */
export interface SettingProposal<T = unknown> {
  id: number;
  kind: string;
  /** Which instance of the kind: `COIN/NETWORK`, `FROM/TO`, or '' for a module's single settings row. */
  targetKey: string;
  before: T;
  after: T;
  status: SettingProposalStatus;
  proposedById: number;
  proposedByEmail: string;
  proposedAt: Date;
  decidedById: number | null;
  decidedByEmail: string | null;
  decidedAt: Date | null;
}

/**
 * The one maker-checker workflow of the back office (`createSettingsWorkflow`, admin module): the
 * modules register their kinds; proposals, approvals and rejections of every kind go through it.
 */
export interface SettingsWorkflow {
  /** Register a kind (once, at start). @throws Error when the kind is already registered. */
  register<T>(kind: SettingKind<T>): void;
  /**
   * Store a proposal of `kind` for `targetKey`: `before` read now, `after` normalised; nothing
   * applies. Runs in `tx` when given (so a module can propose beside an immediate change).
   * @throws DomainError FORBIDDEN (role not among the kind's proposers), NOT_FOUND (no target).
   */
  propose<T>(
    operator: SettingsOperator,
    kind: string,
    targetKey: string,
    after: T,
    tx?: SettingsTx,
  ): Promise<SettingProposal<T>>;
  /**
   * Approve and apply a proposal, once, in one transaction.
   * @throws DomainError NOT_FOUND (no such id among `kinds`); FORBIDDEN (role); FOUR_EYES_REQUIRED
   *   (153); SETTING_CHANGE_STATE_CHANGED (156, `{ status }`); SETTING_CHANGE_STALE (176).
   */
  approve(operator: SettingsOperator, id: number, kinds: readonly string[]): Promise<SettingProposal>;
  /** Reject a proposal (its proposer too). @throws NOT_FOUND; FORBIDDEN; SETTING_CHANGE_STATE_CHANGED (156). */
  reject(operator: SettingsOperator, id: number, kinds: readonly string[]): Promise<SettingProposal>;
  /** Proposals of `kinds`, newest first (at most `limit`, 200 by default), optionally of one status. */
  list(
    query: { kinds: readonly string[]; status?: SettingProposalStatus | undefined; limit?: number },
    db?: SettingsTx,
  ): Promise<SettingProposal[]>;
  /** Every registered kind, in the order registered ('network.withdrawFee', 'loans.riskLevels', …). */
  registeredKinds(): string[];
  /**
   * A proposal's `before` or `after` of `kind` as one line of text (the kind's `describe`), or the
   * values as JSON when they do not read as the kind's values. @throws Error when `kind` is unknown.
   */
  describe(kind: string, values: unknown): string;
  /** Applied proposals of `kind`, oldest decision first (at most 1,000): a setting's history. */
  appliedHistory(kind: string, db?: SettingsTx): Promise<SettingProposal[]>;
}
