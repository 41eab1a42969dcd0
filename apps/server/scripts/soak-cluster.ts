/**
 * `npm run soak:cluster -- [--duration 150] [--users 12] [--concurrency 6] [--sync] [--keep]`:
 * money through the cluster of docs/scale.md while its parts fail.
 *
 * 1. `scripts/cluster.sh up` in a temporary directory on free loopback ports (PostgreSQL primary and
 *    streaming hot standby, synchronous with `--sync`; PgBouncer in transaction mode; Redis; three
 *    server processes of the production build; HAProxy).
 * 2. Set-up on the primary (`soak/setup.ts`): `--users` verified users with a security code,
 *    100,000 USDT each through the custody webhook; then investor level, 2 BTC each (a ledger
 *    deposit), and one loan each (`POST loan/borrow` through HAProxy).
 * 3. For `--duration` seconds, `--concurrency` clients through HAProxy withdraw, transfer, swap,
 *    subscribe the current fund and repay their loan (`soak/cluster-load.ts`), each request with an
 *    Idempotency-Key and sent again until answered, while `soak/cluster-chaos.ts` kill -9s a server
 *    process and starts it again, restarts PgBouncer, or stops and starts the standby, and the
 *    primary's replication lag is sampled once a second.
 * 4. Checks on the primary (`soak/inspect.ts`, `soak/cluster-inspect.ts`): drift, negative
 *    balances, withdrawal entries and frozen balances, the ledger's invariants, duplicates, losses
 *    and unexpected applications against every client outcome, and each scheduled job's run
 *    records (once per period, none missed) across the three processes.
 *
 * Prints one JSON line; exit 1 when a money figure is not 0 (or a job missed a period or ran twice),
 * 2 when the soak could not run. The cluster is stopped (`cluster.sh down`) unless `--keep`.
 */
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { postEntry } from '../src/modules/ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../src/modules/ledger/ledger.types.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { runChaos, sampleReplication } from './soak/cluster-chaos.ts';
import { clusterAgreement, jobRunFigures } from './soak/cluster-inspect.ts';
import { ClusterSoakClient, type ClusterSoakUser } from './soak/cluster-load.ts';
import { clusterCommand, clusterHandle, freeClusterPortBase, queryOnce } from './soak/cluster.ts';
import { isLedgerClean, ledgerFigures } from './soak/inspect.ts';
import { setUpSoakUsers } from './soak/setup.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '150' },
    users: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '6' },
    sync: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const durationMs = Number(values.duration) * 1000;
const userCount = Number(values.users);
const concurrency = Number(values.concurrency);
if (!(durationMs > 0) || !Number.isSafeInteger(userCount) || userCount < 2 || !(concurrency >= 1)) {
  console.error(
    'usage: npm run soak:cluster -- [--duration SECONDS] [--users N≥2] [--concurrency N≥1] [--sync] [--keep]',
  );
  process.exit(2);
}
const SERVERS = 3;
const FUNDING_USDT = '100000';
const FUNDING_BTC_MINOR = 200_000_000n;
const log = (message: string) => console.error(`soak:cluster: ${message}`);

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
};

/** Investor level and 2 BTC for each user, on the primary, before any server has seen them. */
async function upgradeUsers(primaryUrl: string, users: ClusterSoakUser[]): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url: primaryUrl, poolMax: 2 });
  try {
    for (const user of users) {
      await database.db.execute(sql`UPDATE users SET kyc_level = 2 WHERE id = ${user.userId}::uuid`);
      await postEntry(database.db, {
        kind: 'DEPOSIT',
        reference: `soak-cluster:btc-${user.userId}`,
        idempotencyKey: `soak-cluster:btc-${user.userId}`,
        postings: transfer(
          platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
          userAccount(user.userId, 'USER_AVAILABLE', 'BTC'),
          FUNDING_BTC_MINOR,
        ),
      });
    }
  } finally {
    await database.close();
  }
}

interface LedgerSize {
  lsn: string;
  postings: number;
  entries: number;
  /** Table + indexes (+ TOAST) of ledger_postings and ledger_entries, bytes. */
  postingsBytes: number;
  entriesBytes: number;
}

async function walAndPostings(primaryUrl: string): Promise<LedgerSize> {
  const [row] = await queryOnce<Record<keyof LedgerSize, string>>(
    primaryUrl,
    `SELECT pg_current_wal_lsn()::text AS lsn, (SELECT count(*) FROM ledger_postings)::text AS postings,
            (SELECT count(*) FROM ledger_entries)::text AS entries,
            pg_total_relation_size('ledger_postings')::text AS "postingsBytes",
            pg_total_relation_size('ledger_entries')::text AS "entriesBytes"`,
  );
  return {
    lsn: row!.lsn,
    postings: Number(row!.postings),
    entries: Number(row!.entries),
    postingsBytes: Number(row!.postingsBytes),
    entriesBytes: Number(row!.entriesBytes),
  };
}

/** The checks on the primary once the load has stopped (`soak/inspect.ts`, `soak/cluster-inspect.ts`). */
async function runChecks(
  primaryUrl: string,
  users: ClusterSoakUser[],
  client: ClusterSoakClient,
  fromMs: number,
  toMs: number,
) {
  const database = await openDatabase({ kind: 'postgres', url: primaryUrl, poolMax: 2 });
  try {
    return {
      ledger: await ledgerFigures(database.db),
      agreement: await clusterAgreement(
        database.db,
        users.map((user) => user.userId),
        client.outcomes,
      ),
      jobs: await jobRunFigures(database.db, fromMs, toMs),
    };
  } finally {
    await database.close();
  }
}

/** Log the money figures; 0 when every one is 0 and nothing stayed unresolved, else 1. */
function verdict(checks: Awaited<ReturnType<typeof runChecks>>, client: ClusterSoakClient): number {
  const money = {
    driftMinor: checks.ledger.driftMinor === '0' ? 0 : 1,
    negativeUserBalances: checks.ledger.negativeUserBalances,
    duplicates: checks.agreement.duplicates,
    losses: checks.agreement.losses,
    unexpected: checks.agreement.unexpected,
  };
  const jobsMissed = checks.jobs.reduce((sum, job) => sum + job.missed, 0);
  log(
    `ops ${JSON.stringify(client.figures.applied)}, retries ${client.figures.retries}, client errors ${JSON.stringify(client.figures.clientErrors)}; ` +
      `drift ${checks.ledger.driftMinor}, negative ${money.negativeUserBalances}, duplicates ${money.duplicates}, losses ${money.losses}, ` +
      `unexpected ${money.unexpected}; ledger ${isLedgerClean(checks.ledger) ? 'clean' : 'BROKEN'}; job periods missed ${jobsMissed}`,
  );
  const isClean =
    isLedgerClean(checks.ledger) &&
    Object.values(money).every((n) => n === 0) &&
    checks.agreement.stuckClaims === 0 &&
    client.figures.unresolved === 0 &&
    jobsMissed === 0;
  return isClean ? 0 : 1;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-soak-cluster-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as `postgres` when this runs as root
  const cluster = clusterHandle(join(dir, 'cluster'), await freeClusterPortBase(SERVERS), SERVERS, values.sync);
  const startedMs = performance.now();
  log(
    `cluster in ${cluster.dir}, ports from ${cluster.portBase}, replication ${values.sync ? 'synchronous' : 'asynchronous'}`,
  );
  try {
    await clusterCommand(cluster, 'up');
    log(`cluster up in ${Math.round((performance.now() - startedMs) / 1000)} s; setting up ${userCount} users`);
    const soakUsers = await setUpSoakUsers(
      { dataDir: join(cluster.dir, 'data'), databaseUrl: cluster.primaryUrl },
      userCount,
      FUNDING_USDT,
    );
    const users: ClusterSoakUser[] = soakUsers.map((user) => ({ ...user, loanOrderId: null }));
    await upgradeUsers(cluster.primaryUrl, users);
    const client = new ClusterSoakClient(cluster.baseUrl, users, concurrency);
    await client.borrowAll();
    log(`users set up with a loan each; load and failures for ${durationMs / 1000} s`);

    const before = await walAndPostings(cluster.primaryUrl);
    const loadStartedMs = Date.now();
    const isOver = () => Date.now() - loadStartedMs >= durationMs;
    const [, chaos, samples] = await Promise.all([
      client.run(isOver),
      runChaos(cluster, isOver, log),
      sampleReplication(cluster, isOver),
    ]);
    const loadEndedMs = Date.now();
    const after = await walAndPostings(cluster.primaryUrl);
    const [walRow] = await queryOnce<{ bytes: string }>(
      cluster.primaryUrl,
      `SELECT pg_wal_lsn_diff('${after.lsn}', '${before.lsn}')::text AS bytes`,
    );

    const checks = await runChecks(cluster.primaryUrl, users, client, loadStartedMs, loadEndedMs);
    const lagMs = samples.map((sample) => sample.replayLagMs).filter((lag): lag is number => lag !== null);
    const lagBytes = samples.map((sample) => sample.replayLagBytes).filter((lag): lag is number => lag !== null);
    const walBytes = Number(walRow?.bytes ?? 0);
    const postings = after.postings - before.postings;
    const report = {
      replication: values.sync ? 'sync' : 'async',
      servers: SERVERS,
      users: userCount,
      concurrency,
      durationS: Math.round((loadEndedMs - loadStartedMs) / 1000),
      ...client.figures,
      chaos: { ...chaos, serverRestartMs: undefined, serverRestartP50Ms: percentile(chaos.serverRestartMs, 0.5) },
      entriesDuringLoad: after.entries - before.entries,
      postingsDuringLoad: postings,
      walBytes,
      walBytesPerPosting: postings > 0 ? Math.round(walBytes / postings) : null,
      walBytesPerOperation: Math.round(
        walBytes /
          Math.max(
            1,
            Object.values(client.figures.applied).reduce((sum, n) => sum + n, 0),
          ),
      ),
      // All postings and entries at the end (set-up included): table + index bytes per row.
      ledgerBytesPerPosting: Math.round(after.postingsBytes / Math.max(1, after.postings)),
      ledgerBytesPerEntry: Math.round(after.entriesBytes / Math.max(1, after.entries)),
      replicaLagMs: {
        p50: percentile(lagMs, 0.5),
        p99: percentile(lagMs, 0.99),
        max: percentile(lagMs, 1),
        samples: lagMs.length,
      },
      replicaLagBytes: { p50: percentile(lagBytes, 0.5), max: percentile(lagBytes, 1) },
      ...checks.ledger,
      ...checks.agreement,
      jobs: checks.jobs,
      totalS: Math.round((performance.now() - startedMs) / 1000),
    };
    console.log(JSON.stringify(report));
    return verdict(checks, client);
  } finally {
    if (values.keep)
      log(
        `cluster kept in ${cluster.dir} (CLUSTER_DIR=${cluster.dir} CLUSTER_PORT_BASE=${cluster.portBase} scripts/cluster.sh down)`,
      );
    else {
      await clusterCommand(cluster, 'down').catch((error: unknown) => log(`cluster.sh down failed: ${String(error)}`));
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 2;
}
