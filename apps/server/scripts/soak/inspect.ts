import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { checkLedgerInvariants } from '../../src/modules/ledger/ledger.invariants.ts';
import { accountBalance } from '../../src/modules/ledger/ledger.service.ts';
import { userAccount } from '../../src/modules/ledger/ledger.types.ts';
import { type Database, type Db, openDatabase } from '../../src/platform/db/client.ts';
import type { SoakClient } from './load.ts';
import type { ServerTarget } from './server-process.ts';
import { SOAK_COIN } from './setup.ts';

/**
 * The soak's checks on the database, run in this process while no server runs: after each kill on
 * the state the crash left, and after the final clean stop together with the client's view.
 */
export interface LedgerFigures {
  ledgerEntries: number;
  /** Σ over assets of |Σ balances of the asset| (platform accounts included): 0 when nothing was created or lost. */
  driftMinor: string;
  negativeUserBalances: number;
  /** Withdrawals whose ledger entries do not match their type and status. */
  withdrawalMismatches: number;
  /** Frozen balances that differ from the user's open (0, 1) withdrawals. */
  frozenMismatches: number;
  invariantsHeld: boolean;
}

/** Where the database and the client disagree (all must be 0). */
export interface AgreementFigures {
  /** Idempotency keys with more than one withdrawal row. */
  duplicateKeys: number;
  /** Keys answered with a withdrawal that the database does not hold under that key. */
  lostWithdrawals: number;
  /** Withdrawal rows of the soak users whose key the client saw refused, or never sent. */
  unexpectedWithdrawals: number;
  /** Withdrawals whose status is not the one the client's answers imply. */
  statusMismatches: number;
  /** Soak users whose available or frozen balance differs from the client's account of it. */
  balanceMismatches: number;
}

async function rows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

async function count(db: Db, query: SQL): Promise<number> {
  return Number((await rows(db, query))[0]?.n ?? 0);
}

/**
 * Open the soak's database for a check. A PGlite directory is copied first, so that the recovery
 * after the crash is left to the next server process, as in production, and the check sees the
 * same state through its own recovery of the copy.
 */
export async function withDatabase<T>(
  target: ServerTarget,
  isCopy: boolean,
  use: (database: Database) => Promise<T>,
): Promise<T> {
  if (target.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', url: target.databaseUrl, poolMax: 2 });
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  }
  const copyDir = isCopy ? mkdtempSync(join(tmpdir(), 'meridian-soak-check-')) : undefined;
  if (copyDir) cpSync(join(target.dataDir, 'pglite'), join(copyDir, 'pglite'), { recursive: true });
  const database = await openDatabase({ kind: 'pglite', dataDir: copyDir ?? target.dataDir });
  try {
    return await use(database);
  } finally {
    await database.close();
    if (copyDir) rmSync(copyDir, { recursive: true, force: true });
  }
}

export async function ledgerFigures(db: Db): Promise<LedgerFigures> {
  const ledgerEntries = await count(db, sql`SELECT count(*)::text AS n FROM ledger_entries`);
  const drift = (
    await rows(
      db,
      sql`SELECT coalesce(sum(abs(s)), 0)::text AS d FROM (SELECT asset, sum(balance_minor) AS s FROM ledger_accounts GROUP BY asset) x`,
    )
  )[0]?.d;
  const negativeUserBalances = await count(
    db,
    sql`SELECT count(*)::text AS n FROM ledger_accounts WHERE owner_kind = 'user' AND balance_minor < 0`,
  );
  // OUTER: waiting or processing ⇔ one freeze; success ⇔ a freeze and a settlement; failure or
  // cancel ⇔ a freeze and a return. INTERNAL: success and one transfer. Never a second of anything.
  const withdrawalMismatches = await count(
    db,
    sql`SELECT count(*)::text AS n FROM withdrawals w
      LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE kind = 'WITHDRAWAL_FREEZE') AS f, count(*) FILTER (WHERE kind = 'WITHDRAWAL_RETURN') AS r,
                                count(*) FILTER (WHERE kind = 'WITHDRAWAL_SETTLE') AS s, count(*) FILTER (WHERE kind = 'INTERNAL_TRANSFER') AS t,
                                count(*) AS total
                         FROM ledger_entries e WHERE e.reference = 'withdrawal:' || w.id) c ON true
      WHERE NOT ((w.type = 'OUTER' AND w.status IN (0, 1) AND c.f = 1 AND c.total = 1)
              OR (w.type = 'OUTER' AND w.status = 2 AND c.f = 1 AND c.s = 1 AND c.total = 2)
              OR (w.type = 'OUTER' AND w.status IN (3, 4) AND c.f = 1 AND c.r = 1 AND c.total = 2)
              OR (w.type = 'INTERNAL' AND w.status = 2 AND c.t = 1 AND c.total = 1))`,
  );
  const frozenMismatches = await count(
    db,
    sql`SELECT count(*)::text AS n FROM ledger_accounts a
      LEFT JOIN (SELECT user_id::text AS uid, coin_code, sum(amount_minor + fee_minor) AS held FROM withdrawals WHERE status IN (0, 1) GROUP BY user_id, coin_code) w
        ON w.uid = a.owner_id AND w.coin_code = a.asset
      WHERE a.type = 'USER_FROZEN' AND a.balance_minor <> coalesce(w.held, 0)`,
  );
  const invariants = await checkLedgerInvariants(db);
  return {
    ledgerEntries,
    driftMinor: String(drift ?? '0'),
    negativeUserBalances,
    withdrawalMismatches,
    frozenMismatches,
    invariantsHeld: invariants.isHeld,
  };
}

/** Compare the database with the client's account of every request's outcome. */
export async function agreementFigures(db: Db, client: SoakClient): Promise<AgreementFigures> {
  const userIds = sql.join(
    client.users.map((user) => sql`${user.userId}::uuid`),
    sql`, `,
  );
  const duplicateKeys = await count(
    db,
    sql`SELECT count(*)::text AS n FROM (SELECT user_id, idempotency_key FROM withdrawals WHERE idempotency_key IS NOT NULL GROUP BY user_id, idempotency_key HAVING count(*) > 1) d`,
  );
  const stored = await rows(
    db,
    sql`SELECT id::text AS id, idempotency_key AS key, status FROM withdrawals WHERE user_id IN (${userIds})`,
  );
  const storedByKey = new Map<string, string[]>();
  for (const row of stored) {
    const key = String(row.key);
    storedByKey.set(key, [...(storedByKey.get(key) ?? []), String(row.id)]);
  }
  let lostWithdrawals = 0;
  for (const [key, outcome] of client.withdrawalByKey) {
    const ids = storedByKey.get(key) ?? [];
    if (outcome.withdrawalId !== null && !(ids.length === 1 && ids[0] === outcome.withdrawalId)) lostWithdrawals += 1;
  }
  let unexpectedWithdrawals = 0;
  for (const [key, ids] of storedByKey) {
    if (!client.withdrawalByKey.get(key)?.withdrawalId) unexpectedWithdrawals += ids.length;
  }
  let statusMismatches = 0;
  const statusById = new Map(stored.map((row) => [String(row.id), Number(row.status)]));
  for (const [id, status] of client.expectedStatus) {
    if (statusById.get(id) !== status) statusMismatches += 1;
  }
  let balanceMismatches = 0;
  for (const expected of client.expectedBalances()) {
    const availableMinor = await accountBalance(db, userAccount(expected.userId, 'USER_AVAILABLE', SOAK_COIN));
    const frozenMinor = await accountBalance(db, userAccount(expected.userId, 'USER_FROZEN', SOAK_COIN));
    if (availableMinor !== expected.availableMinor || frozenMinor !== expected.frozenMinor) balanceMismatches += 1;
  }
  return { duplicateKeys, lostWithdrawals, unexpectedWithdrawals, statusMismatches, balanceMismatches };
}

export function isLedgerClean(figures: LedgerFigures): boolean {
  return (
    figures.driftMinor === '0' &&
    figures.negativeUserBalances === 0 &&
    figures.withdrawalMismatches === 0 &&
    figures.frozenMismatches === 0 &&
    figures.invariantsHeld
  );
}
