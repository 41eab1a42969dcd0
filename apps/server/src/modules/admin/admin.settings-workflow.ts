import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { settingChanges } from './admin.settings.tables.ts';
import type {
  SettingKind,
  SettingProposal,
  SettingProposalStatus,
  SettingsOperator,
  SettingsWorkflow,
} from './admin.types.ts';

type ChangeRow = typeof settingChanges.$inferSelect;

function toProposal(row: ChangeRow): SettingProposal {
  return {
    id: row.id,
    kind: row.kind,
    targetKey: row.targetKey,
    before: row.before,
    after: row.after,
    status: row.status as SettingProposalStatus,
    proposedById: row.proposedById,
    proposedByEmail: row.proposedByEmail,
    proposedAt: row.proposedAt,
    decidedById: row.decidedById,
    decidedByEmail: row.decidedByEmail,
    decidedAt: row.decidedAt,
  };
}

/**
 * The back office's one maker-checker (four-eyes) workflow for settings, a factory in the admin
 * module's style (docs/decisions/0015-settings-workflow.md). A module registers each kind of risky
 * setting it owns — the zod schema of its values, who may propose and approve, how to lock, read and
 * apply it — and every proposal of every kind lives in the one `setting_changes` table:
 * - propose: `before` is read when proposing; nothing applies.
 * - approve: in one transaction the target is locked, the row is claimed with
 *   `UPDATE … WHERE status = 'proposed' AND proposed_by_id <> <approver>` (the table's check says the
 *   same), the current values must still equal `before` (else 176 and the claim rolls back), then the
 *   kind's `apply` writes `after` in its module. A change therefore applies exactly once.
 * - reject: any allowed role, the proposer too; nothing changes.
 * The routes note the audit entries (each module's routes, as before).
 */
export function createSettingsWorkflow(deps: { db: Db; now: () => Date }): SettingsWorkflow {
  const { db, now } = deps;
  const kinds = new Map<string, SettingKind<unknown>>();

  function kindOf(name: string): SettingKind<unknown> {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`setting kind ${name} is not registered`);
    return kind;
  }

  function assertRole(operator: SettingsOperator, roles: readonly string[]): void {
    if (!roles.includes(operator.role)) throw new DomainError('FORBIDDEN');
  }

  /** The row `id` if its kind is among `names` (another module's change is NOT_FOUND here). */
  async function find(executor: DbOrTx, id: number, names: readonly string[]): Promise<ChangeRow> {
    const [row] = await executor.select().from(settingChanges).where(eq(settingChanges.id, id));
    if (!row || !names.includes(row.kind)) throw new DomainError('NOT_FOUND');
    return row;
  }

  /** After a claim or a rejection found nothing to move: 156 when decided, else `otherwise`. */
  async function refuse(
    executor: DbOrTx,
    id: number,
    names: readonly string[],
    otherwise: DomainError,
  ): Promise<never> {
    const existing = await find(executor, id, names);
    if (existing.status !== 'proposed')
      throw new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: existing.status });
    throw otherwise;
  }

  return {
    register<T>(kind: SettingKind<T>): void {
      if (kinds.has(kind.kind)) throw new Error(`setting kind ${kind.kind} is registered twice`);
      kinds.set(kind.kind, kind as SettingKind<unknown>);
    },

    async propose<T>(operator: SettingsOperator, name: string, targetKey: string, after: T, tx?: DbOrTx) {
      const kind = kindOf(name) as SettingKind<T>;
      assertRole(operator, kind.proposerRoles);
      const executor = tx ?? db;
      const before = await kind.read(executor, targetKey);
      if (before === null) throw new DomainError('NOT_FOUND');
      const [row] = await executor
        .insert(settingChanges)
        .values({
          kind: name,
          targetKey,
          before,
          after: kind.normalise ? kind.normalise(after) : after,
          proposedById: operator.id,
          proposedByEmail: operator.email,
          proposedAt: now(),
        })
        .returning();
      return toProposal(row!) as SettingProposal<T>;
    },

    async approve(operator, id, names) {
      return db.transaction(async (tx) => {
        const proposal = await find(tx, id, names);
        const kind = kindOf(proposal.kind);
        assertRole(operator, kind.approverRoles);
        await kind.lock(tx, proposal.targetKey);
        const [claimed] = await tx
          .update(settingChanges)
          .set({ status: 'applied', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: now() })
          .where(
            and(
              eq(settingChanges.id, id),
              eq(settingChanges.status, 'proposed'),
              ne(settingChanges.proposedById, operator.id),
            ),
          )
          .returning();
        if (!claimed) return refuse(tx, id, names, new DomainError('FOUR_EYES_REQUIRED'));
        // The values the proposer saw must still be the values: a change approved or made since
        // would otherwise be overwritten unseen. Throwing rolls the claim back (still 'proposed').
        const current = await kind.read(tx, claimed.targetKey);
        const before = kind.valuesSchema.parse(claimed.before);
        if (current === null || !kind.isSame(current, before))
          throw new DomainError('SETTING_CHANGE_STALE', { current: current === null ? '—' : kind.describe(current) });
        await kind.apply(tx, claimed.targetKey, kind.valuesSchema.parse(claimed.after));
        return toProposal(claimed);
      });
    },

    async reject(operator, id, names) {
      const proposal = await find(db, id, names);
      assertRole(operator, kindOf(proposal.kind).approverRoles);
      const [rejected] = await db
        .update(settingChanges)
        .set({ status: 'rejected', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: now() })
        .where(and(eq(settingChanges.id, id), eq(settingChanges.status, 'proposed')))
        .returning();
      if (rejected) return toProposal(rejected);
      return refuse(db, id, names, new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: 'proposed' }));
    },

    async list(query, executor = db) {
      if (query.kinds.length === 0) return [];
      const rows = await executor
        .select()
        .from(settingChanges)
        .where(
          and(
            inArray(settingChanges.kind, [...query.kinds]),
            query.status === undefined ? undefined : eq(settingChanges.status, query.status),
          ),
        )
        .orderBy(desc(settingChanges.id))
        .limit(query.limit ?? 200);
      return rows.map(toProposal);
    },

    registeredKinds: () => [...kinds.keys()],

    describe(name, values) {
      const kind = kindOf(name);
      const parsed = kind.valuesSchema.safeParse(values);
      return parsed.success ? kind.describe(parsed.data) : JSON.stringify(values);
    },

    async appliedHistory(name, executor = db) {
      const rows = await executor
        .select()
        .from(settingChanges)
        .where(and(eq(settingChanges.kind, name), eq(settingChanges.status, 'applied')))
        .orderBy(asc(settingChanges.decidedAt), asc(settingChanges.id))
        .limit(1_000);
      return rows.map(toProposal);
    },
  };
}
