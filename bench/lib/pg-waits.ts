/**
 * Where PostgreSQL's backends wait while a load runs, with evidence: every `SAMPLE_EVERY_MS` one
 * query of `pg_stat_activity` (the bench database's client backends, not idle) counts each backend
 * by its wait event (`Lock:transactionid` = waiting for another transaction's row lock,
 * `IO:WALSync` = the commit's WAL flush, `Client:ClientRead` = idle in a transaction waiting for the
 * server's next statement, `CPU` = running), and the app's pool is read for its queue (`waiting`:
 * queries waiting for a free connection). By Little's law the mean count in a state divided by the
 * rate of decisions is the mean time each decision spent in it: `stop(decisionsPerSecond)` prints
 * that, in ms per decision. The sampler's own connection is left out. Load-independent counters
 * too: the bench database's commits (`pg_stat_database.xact_commit` less the sampler's own; each is
 * a WAL flush with synchronous_commit on) and the CPU of its backends (`/proc/<pid>/stat` utime +
 * stime of the backends seen at both ends; PostgreSQL on this machine), per 1,000 decisions.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

const SAMPLE_EVERY_MS = 10;

export interface PgWaitSampler {
  /**
   * Stop sampling; one line: per state the mean backends in it and ms per decision at
   * `decisionsPerSecond`, then commits and backend CPU per 1,000 of `decisions`.
   */
  stop(decisionsPerSecond: number, decisions: number): Promise<string>;
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
  const counters = async () => {
    const { rows } = await client.query<{ commits: string; pids: number[] }>(
      `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
         (SELECT array_agg(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()) AS pids`,
    );
    const cpuTicks = new Map<number, number>();
    for (const pid of rows[0]?.pids ?? []) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        // Fields 14 and 15 of the stat line (utime, stime), counted after "pid (comm) ".
        cpuTicks.set(pid, Number(fields[11]) + Number(fields[12]));
      } catch {
        // a backend that ended
      }
    }
    return { commits: Number(rows[0]?.commits ?? 0), cpuTicks };
  };
  const before = await counters();
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
    async stop(decisionsPerSecond: number, decisions: number): Promise<string> {
      isRunning = false;
      await loop;
      const after = await counters();
      await client.end();
      let cpuTicks = 0;
      for (const [pid, ticks] of after.cpuTicks) cpuTicks += ticks - (before.cpuTicks.get(pid) ?? ticks);
      const perThousand = (value: number) => ((value / Math.max(1, decisions)) * 1000).toFixed(1);
      // USER_HZ: 100 ticks a second on Linux.
      const counted =
        `commits per 1,000 decisions ${perThousand(after.commits - before.commits - samples - 1)}, ` +
        `backend CPU per 1,000 decisions ${perThousand((cpuTicks / 100) * 1000)} ms`;
      const perDecisionMs = (meanCount: number) => ((meanCount / decisionsPerSecond) * 1000).toFixed(2);
      const states = [...totals.entries()]
        .map(([state, sum]) => [state, sum / Math.max(1, samples)] as const)
        .sort((a, b) => b[1] - a[1])
        .map(([state, mean]) => `${state} ${mean.toFixed(2)} (${perDecisionMs(mean)} ms)`);
      const poolMean = poolWaitingSum / Math.max(1, samples);
      return (
        `backends not idle, mean count (ms per decision), ${samples} samples: ${states.join(', ') || 'none'}; ` +
        `pool queue ${poolMean.toFixed(2)} (${perDecisionMs(poolMean)} ms); ${counted}`
      );
    },
  };
}
