import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../src/platform/db/client.ts';
import type { Outcome } from './cluster-load.ts';

/**
 * The cluster soak's checks on the primary once the load has stopped: where the database and the
 * clients' outcomes disagree (duplicates, losses, unexpected applications) and whether every
 * scheduled job ran exactly once per period while the processes were being killed.
 */
export interface ClusterAgreement {
  /** (user, idempotency key) pairs with more than one withdrawal, fund order or loan repayment; swaps executed twice. */
  duplicates: number;
  /** Requests answered 200 whose resource or stored answer the database does not hold. */
  losses: number;
  /** Stored answers (and executed swaps) of the soak users that no client request was answered with. */
  unexpected: number;
  /** Claims still RUNNING for a soak user's key after every request was resolved. */
  stuckClaims: number;
}

async function rows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** The soak users' resources by kind: id → count of rows with that id (1 each, by key). */
async function storedIds(db: Db, userIds: SQL): Promise<Set<string>> {
  const found = await rows(
    db,
    sql`SELECT 'w:' || id::text AS id FROM withdrawals WHERE user_id IN (${userIds})
        UNION ALL SELECT 'f:' || id::text FROM fund_orders WHERE user_id IN (${userIds}) AND action = 'SUBSCRIBE'
        UNION ALL SELECT 'r:' || id::text FROM loan_repayments WHERE user_id IN (${userIds})
        UNION ALL SELECT 's:' || id::text FROM exchange_quotes WHERE user_id IN (${userIds}) AND status = 'EXECUTED'`,
  );
  return new Set(found.map((row) => String(row.id)));
}

const PREFIX: Record<Outcome['kind'], string> = {
  withdraw: 'w:',
  transfer: 'w:',
  subscribe: 'f:',
  repay: 'r:',
  swap: 's:',
};

/** Compare the database with every outcome the clients recorded. */
export async function clusterAgreement(db: Db, userIdList: string[], outcomes: Outcome[]): Promise<ClusterAgreement> {
  const userIds = sql.join(
    userIdList.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const userTexts = sql.join(
    userIdList.map((id) => sql`${id}`),
    sql`, `,
  );
  const duplicateRows = await rows(
    db,
    sql`SELECT (SELECT count(*) FROM (SELECT 1 FROM withdrawals WHERE user_id IN (${userIds}) AND idempotency_key IS NOT NULL GROUP BY user_id, idempotency_key HAVING count(*) > 1) a)
             + (SELECT count(*) FROM (SELECT 1 FROM fund_orders WHERE user_id IN (${userTexts}) AND idempotency_key IS NOT NULL GROUP BY user_id, idempotency_key HAVING count(*) > 1) b)
             + (SELECT count(*) FROM (SELECT 1 FROM loan_repayments WHERE user_id IN (${userIds}) GROUP BY loan_id, idempotency_key HAVING count(*) > 1) c)
             + (SELECT count(*) FROM exchange_quotes q WHERE q.user_id IN (${userTexts}) AND q.status = 'EXECUTED'
                  AND (SELECT count(*) FROM ledger_entries e WHERE e.idempotency_key = 'swap:' || q.id::text) <> 1) AS n`,
  );
  const stored = await storedIds(db, userTexts);
  const answers = await rows(
    db,
    sql`SELECT owner_id, idempotency_key AS key, state, answer FROM idempotency_keys
        WHERE owner_id IN (${userTexts}) AND idempotency_key LIKE 'soakc-%'`,
  );
  const answerByKey = new Map(answers.map((row) => [`${String(row.owner_id)} ${String(row.key)}`, row]));
  let losses = 0;
  const answeredResources = new Set<string>();
  const appliedKeys = new Set<string>();
  for (const outcome of outcomes) {
    if (outcome.resourceId === null) continue;
    const resource = PREFIX[outcome.kind] + outcome.resourceId;
    answeredResources.add(resource);
    appliedKeys.add(`${outcome.userId} ${outcome.key}`);
    const answer = answerByKey.get(`${outcome.userId} ${outcome.key}`);
    const isStored = answer?.state === 'DONE' && String(answer.answer ?? '').includes(outcome.resourceId);
    if (!isStored || !stored.has(resource)) losses += 1;
  }
  let unexpected = 0;
  for (const [key, answer] of answerByKey) if (answer.state === 'DONE' && !appliedKeys.has(key)) unexpected += 1;
  // Every withdrawal, subscription, repayment and swap of the soak users came from an answered request
  // (the loans themselves are borrowed before the load and are not among these).
  for (const resource of stored) if (!answeredResources.has(resource)) unexpected += 1;
  const stuckClaims = answers.filter((row) => row.state === 'RUNNING').length;
  return { duplicates: Number(duplicateRows[0]?.n ?? 0), losses, unexpected, stuckClaims };
}

/** One job's runs within the soak. */
export interface JobRunFigures {
  job: string;
  periodMs: number;
  /** Whole periods inside the soak's window. */
  periods: number;
  /** Periods of those with a finished run record (the primary key allows one per period). */
  ran: number;
  /** Periods of those without one. */
  missed: number;
}

/**
 * For every job with at least two runs before the window ends, its period (the shortest gap
 * between two runs), and how many whole periods inside [fromMs, toMs] have a finished run record.
 * Only jobs whose period fits twice in the window are listed.
 */
export async function jobRunFigures(db: Db, fromMs: number, toMs: number): Promise<JobRunFigures[]> {
  const runs = await rows(
    db,
    sql`SELECT job_name AS job, (extract(epoch FROM period_start_at) * 1000)::bigint::text AS at, finished_at IS NOT NULL AS done
        FROM job_runs ORDER BY job_name, period_start_at`,
  );
  const byJob = new Map<string, { at: number; done: boolean }[]>();
  for (const row of runs) {
    const list = byJob.get(String(row.job)) ?? [];
    list.push({ at: Number(row.at), done: Boolean(row.done) });
    byJob.set(String(row.job), list);
  }
  const figures: JobRunFigures[] = [];
  for (const [job, list] of byJob) {
    let periodMs = Number.POSITIVE_INFINITY;
    for (let i = 1; i < list.length; i += 1) periodMs = Math.min(periodMs, list[i]!.at - list[i - 1]!.at);
    if (!Number.isFinite(periodMs) || periodMs * 2 > toMs - fromMs) continue;
    const firstPeriodMs = Math.ceil(fromMs / periodMs) * periodMs;
    const lastPeriodMs = Math.floor(toMs / periodMs) * periodMs - periodMs;
    const done = new Set(list.filter((run) => run.done).map((run) => run.at));
    let periods = 0;
    let ran = 0;
    for (let at = firstPeriodMs; at <= lastPeriodMs; at += periodMs) {
      periods += 1;
      if (done.has(at)) ran += 1;
    }
    figures.push({ job, periodMs, periods, ran, missed: periods - ran });
  }
  return figures;
}
