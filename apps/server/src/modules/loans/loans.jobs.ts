import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { type EnginePrice, type PriceEventReport } from './loans.engine.ts';
import { type LoanPrice, type SettingsRow } from './loans.internal.ts';
import type { LoansContext } from './loans.context.ts';

/** How the engine runs protection rules (`loans.protections.ts`). */
type Protect = (tx: Tx, settings: SettingsRow, price: LoanPrice, event: string) => Promise<number>;

/** The engine's jobs as the service offers them: each run in the caller's transaction, or in its own (tests, the replay CLI). */
export function createJobsService(deps: LoansContext, runProtections: Protect) {
  const { db, engine } = deps;

  return {
    /** One price event of the engine (job `loans.engine`; tests call it with a transaction). */
    runPriceEvent: (tx: Tx, prepared: EnginePrice, now: Date) =>
      engine.runPriceEvent(tx, prepared, now, runProtections),

    /** The overdue job's run (job `loans.overdue`). */
    runOverdue: (tx: Tx, prepared: EnginePrice, now: Date) => engine.runOverdue(tx, prepared, now),

    /** One price event at the current price in its own transaction (tests, the replay CLI). */
    async tickEngine(options: { asLeader?: boolean } = {}): Promise<PriceEventReport | null> {
      const prepared = await engine.preparePrice();
      return db.transaction(async (tx) => {
        if (options.asLeader) {
          // The scheduler's lock of job `loans.engine` (platform/jobs/scheduler.ts): busy → the leader is acting.
          const result = await tx.execute(
            sql`SELECT pg_try_advisory_xact_lock(${0x4a0b}, hashtext('loans.engine')) AS locked`,
          );
          const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
          if (!row?.locked) return null;
        }
        return engine.runPriceEvent(tx, prepared, deps.now(), runProtections);
      });
    },

    /** One overdue run in its own transaction (tests, the replay CLI). */
    async tickOverdue(): Promise<{ overdue: number; liquidated: number }> {
      const prepared = await engine.preparePrice();
      return db.transaction((tx) => engine.runOverdue(tx, prepared, deps.now()));
    },
  };
}
