import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';

/** How many offending rows each check reports at most (the count is always exact). */
const SAMPLES_MAX = 20;

/** One invariant's outcome: how many rows break it and a few of them. */
export interface InvariantResult {
  name:
    | 'postings-sum-to-zero-per-asset'
    | 'balances-equal-postings'
    | 'no-negative-user-balance'
    | 'posting-asset-matches-account'
    | 'posting-references-exist';
  description: string;
  isHeld: boolean;
  violationCount: number;
  samples: Record<string, string>[];
}

/** The whole check; `isHeld` when every invariant holds. */
export interface InvariantReport {
  isHeld: boolean;
  results: InvariantResult[];
  entryCount: number;
  accountCount: number;
}

function stringify(row: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)]));
}

async function runCheck(
  db: DbOrTx,
  name: InvariantResult['name'],
  description: string,
  offending: SQL,
): Promise<InvariantResult> {
  const [count] = await queryRows(db, sql`SELECT count(*)::text AS n FROM (${offending}) AS offending`);
  const violationCount = Number(count?.n ?? 0);
  const samples =
    violationCount === 0 ? [] : (await queryRows(db, sql`${offending} LIMIT ${SAMPLES_MAX}`)).map(stringify);
  return { name, description, isHeld: violationCount === 0, violationCount, samples };
}

/**
 * Check the ledger invariants of docs/architecture.md "Money" with set-based SQL over the whole database:
 * 1. the postings of every entry sum to zero per asset;
 * 2. every account's stored balance equals the sum of its postings;
 * 3. no user account is negative;
 * and, as a guard on the posting function, 4. each posting's asset is its account's asset;
 * and, as a guard on the statement-level reference check that replaced the foreign keys (migration
 * 0051, docs/ledger.md "References"), 5. each posting's entry and account exist.
 * Read-only; safe to run on a live database (a running entry is not yet visible).
 */
export async function checkLedgerInvariants(db: DbOrTx): Promise<InvariantReport> {
  const results = [
    await runCheck(
      db,
      'postings-sum-to-zero-per-asset',
      'the postings of every entry sum to zero per asset',
      sql`SELECT entry_id, asset, sum(amount_minor)::text AS sum_minor FROM ledger_postings GROUP BY entry_id, asset HAVING sum(amount_minor) <> 0`,
    ),
    await runCheck(
      db,
      'balances-equal-postings',
      "every account's balance equals the sum of its postings",
      sql`SELECT a.id AS account_id, a.balance_minor::text AS balance_minor, coalesce(p.total, 0)::text AS postings_minor
          FROM ledger_accounts a LEFT JOIN (SELECT account_id, sum(amount_minor) AS total FROM ledger_postings GROUP BY account_id) p ON p.account_id = a.id
          WHERE a.balance_minor <> coalesce(p.total, 0)`,
    ),
    await runCheck(
      db,
      'no-negative-user-balance',
      'no user balance is negative',
      sql`SELECT id AS account_id, owner_id, type, asset, balance_minor::text AS balance_minor FROM ledger_accounts WHERE owner_kind = 'user' AND balance_minor < 0`,
    ),
    await runCheck(
      db,
      'posting-asset-matches-account',
      "every posting's asset is its account's asset",
      sql`SELECT p.id AS posting_id, p.asset, a.asset AS account_asset FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.asset <> a.asset`,
    ),
    await runCheck(
      db,
      'posting-references-exist',
      "every posting's entry and account exist",
      sql`SELECT p.id AS posting_id, p.entry_id, p.account_id FROM ledger_postings p
          WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = p.entry_id)
             OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = p.account_id)`,
    ),
  ];
  const [counts] = await queryRows(
    db,
    sql`SELECT (SELECT count(*) FROM ledger_entries)::text AS entries, (SELECT count(*) FROM ledger_accounts)::text AS accounts`,
  );
  return {
    isHeld: results.every((r) => r.isHeld),
    results,
    entryCount: Number(counts?.entries ?? 0),
    accountCount: Number(counts?.accounts ?? 0),
  };
}

/** The report as lines for a terminal: one line per invariant, then samples of any violation. */
export function formatInvariantReport(report: InvariantReport): string {
  const lines = [`ledger: ${report.entryCount} entries, ${report.accountCount} accounts`];
  for (const result of report.results) {
    lines.push(
      `${result.isHeld ? 'OK  ' : 'FAIL'} ${result.description}${result.isHeld ? '' : ` — ${result.violationCount} violation(s)`}`,
    );
    for (const sample of result.samples) lines.push(`       ${JSON.stringify(sample)}`);
  }
  lines.push(report.isHeld ? 'all ledger invariants hold' : 'LEDGER INVARIANTS BROKEN');
  return lines.join('\n');
}
