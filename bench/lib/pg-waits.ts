/**
 * Where PostgreSQL's backends wait while a load runs, with evidence: every `SAMPLE_EVERY_MS` one
 * query of `pg_stat_activity` (the bench database's client backends, not idle) counts each backend
 * by its wait event (`Lock:transactionid` = waiting for another transaction's row lock,
 * `IO:WALSync` = the commit's WAL flush, `Client:ClientRead` = idle in a transaction waiting for the
 * server's next statement, `CPU` = running), and the app's pool is read for its queue (`waiting`:
 * queries waiting for a free connection). By Little's law the mean count in a state divided by the
 * rate of decisions is the mean time each decision spent in it: `stop(decisionsPerSecond)` prints
 * that, in ms per decision. The sampler's own connection is left out.
 */
import pg from 'pg';

const SAMPLE_EVERY_MS = 10;

export interface PgWaitSampler {
  /** Stop sampling; one line per state: mean backends in it and ms per decision at `decisionsPerSecond`. */
  stop(decisionsPerSecond: number): Promise<string>;
}

/**
 * Start sampling the database at `url` (a postgres:// URL) and, when given, the app pool's
 * `poolStats` (its `waiting` count).
 */
export async function startPgWaitSampler(
  url: string,
  poolStats?: () => { total: number; idle: number; waiting: number },
): Promise<PgWaitSampler> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  const totals = new Map<string, number>();
  let samples = 0;
  let poolWaitingSum = 0;
  let isRunning = true;
  const loop = (async () => {
    while (isRunning) {
      const startedMs = performance.now();
      const { rows } = await client.query<{ state: string; n: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS state, count(*) AS n
         FROM pg_stat_activity
         WHERE datname = current_database() AND backend_type = 'client backend'
           AND pid <> pg_backend_pid() AND state <> 'idle'
         GROUP BY 1`,
      );
      samples += 1;
      for (const row of rows) totals.set(row.state, (totals.get(row.state) ?? 0) + Number(row.n));
      poolWaitingSum += poolStats?.().waiting ?? 0;
      const restMs = SAMPLE_EVERY_MS - (performance.now() - startedMs);
      if (restMs > 0) await new Promise((resolve) => setTimeout(resolve, restMs));
    }
  })();
  return {
    async stop(decisionsPerSecond: number): Promise<string> {
      isRunning = false;
      await loop;
      await client.end();
      const perDecisionMs = (meanCount: number) => ((meanCount / decisionsPerSecond) * 1000).toFixed(2);
      const states = [...totals.entries()]
        .map(([state, sum]) => [state, sum / Math.max(1, samples)] as const)
        .sort((a, b) => b[1] - a[1])
        .map(([state, mean]) => `${state} ${mean.toFixed(2)} (${perDecisionMs(mean)} ms)`);
      const poolMean = poolWaitingSum / Math.max(1, samples);
      return (
        `backends not idle, mean count (ms per decision), ${samples} samples: ${states.join(', ') || 'none'}; ` +
        `pool queue ${poolMean.toFixed(2)} (${perDecisionMs(poolMean)} ms)`
      );
    },
  };
}
