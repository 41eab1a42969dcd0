/**
 * `npm run drill:failover -- [--async] [--writers 4] [--keep]`: the primary failover of
 * docs/scale.md measured on the cluster of `scripts/cluster.sh` (synchronous replication unless
 * `--async`).
 *
 * While `--writers` loops post one-minor-unit ledger transfers through PgBouncer (the servers' own
 * path to the primary) and a prober reads `/readyz` of HAProxy and of each server every 100 ms,
 * `scripts/cluster.sh failover` loses the primary (immediate stop), promotes the standby, points
 * PgBouncer at it and rebuilds the old primary as the new standby. Then every transfer whose commit
 * was acknowledged is looked up on the new primary.
 *
 * Prints one JSON line: the failover's own timings (promoted, writes accepted, standby rebuilt),
 * the longest gap between two acknowledged writes (how long writes were refused, as a client saw
 * it), write errors, /readyz answers other than 200, acknowledged writes and how many of them the
 * new primary lacks (`lostCommitted`: 0 with synchronous replication), and the ledger's invariants.
 * Exit 1 when an acknowledged write is lost with synchronous replication or the ledger is broken.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { checkLedgerInvariants } from '../src/modules/ledger/ledger.invariants.ts';
import { postEntry } from '../src/modules/ledger/ledger.service.ts';
import { platformAccount, transfer } from '../src/modules/ledger/ledger.types.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { clusterCommand, clusterHandle, freeClusterPortBase } from './soak/cluster.ts';

const { values } = parseArgs({
  options: {
    async: { type: 'boolean', default: false },
    writers: { type: 'string', default: '4' },
    keep: { type: 'boolean', default: false },
  },
});
const SERVERS = 3;
const WRITERS = Number(values.writers);
/** Writing before and after the failover, so that both sides of it are seen. */
const STEADY_MS = 4_000;
const PROBE_EVERY_MS = 100;
const log = (message: string) => console.error(`drill:failover: ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Probe {
  /** Non-200 answers (or no answer) per endpoint. */
  notReady: Record<string, number>;
  /** Longest run of non-200 answers of HAProxy's /readyz, in ms. */
  haproxyNotReadyMs: number;
}

async function probeReadiness(baseUrls: Record<string, string>, isOver: () => boolean): Promise<Probe> {
  const probe: Probe = { notReady: {}, haproxyNotReadyMs: 0 };
  let haproxyDownSinceMs: number | null = null;
  while (!isOver()) {
    await Promise.all(
      Object.entries(baseUrls).map(async ([name, url]) => {
        const isReady = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })
          .then((response) => response.status === 200)
          .catch(() => false);
        if (!isReady) probe.notReady[name] = (probe.notReady[name] ?? 0) + 1;
        if (name !== 'haproxy') return;
        if (!isReady) haproxyDownSinceMs ??= performance.now();
        else if (haproxyDownSinceMs !== null) {
          probe.haproxyNotReadyMs = Math.max(probe.haproxyNotReadyMs, performance.now() - haproxyDownSinceMs);
          haproxyDownSinceMs = null;
        }
      }),
    );
    await sleep(PROBE_EVERY_MS);
  }
  return probe;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-failover-'));
  chmodSync(dir, 0o755);
  const cluster = clusterHandle(join(dir, 'cluster'), await freeClusterPortBase(SERVERS), SERVERS, !values.async);
  try {
    await clusterCommand(cluster, 'up');
    log(`cluster up (${cluster.isSync ? 'synchronous' : 'asynchronous'} replication), ports from ${cluster.portBase}`);
    // The writers' path is the servers' path: PgBouncer's transaction pool.
    const database = await openDatabase({ kind: 'postgres', url: cluster.bouncerUrl, poolMax: WRITERS });
    const acknowledged: string[] = [];
    const writeErrors: Record<string, number> = {};
    let lastAckMs = performance.now();
    let longestGapMs = 0;
    let isWriting = true;
    const run = randomUUID().slice(0, 8);
    let next = 0;
    const writers = Array.from({ length: WRITERS }, async () => {
      while (isWriting) {
        const key = `drill-${run}-${next++}`;
        try {
          await postEntry(database.db, {
            kind: 'INTERNAL_TRANSFER',
            reference: 'failover-drill',
            idempotencyKey: key,
            postings: transfer(
              platformAccount('PLATFORM_HOT_WALLET', 'USDT'),
              platformAccount('PLATFORM_FEES', 'USDT'),
              1n,
            ),
          });
          acknowledged.push(key);
          const nowMs = performance.now();
          longestGapMs = Math.max(longestGapMs, nowMs - lastAckMs);
          lastAckMs = nowMs;
        } catch (error) {
          const name =
            (error as { code?: string }).code ?? (error instanceof Error ? error.message.slice(0, 60) : String(error));
          writeErrors[name] = (writeErrors[name] ?? 0) + 1;
          await sleep(50);
        }
      }
    });
    const probeUrls: Record<string, string> = { haproxy: cluster.baseUrl };
    for (let n = 1; n <= SERVERS; n += 1) probeUrls[`server-${n}`] = `http://127.0.0.1:${cluster.portBase + 10 + n}`;
    const probing = probeReadiness(probeUrls, () => !isWriting);
    await sleep(STEADY_MS);
    const beforeFailover = acknowledged.length;
    longestGapMs = 0;
    log(`${beforeFailover} transfers acknowledged; failing over`);
    const output = await clusterCommand(cluster, 'failover');
    log(output.trim());
    await sleep(STEADY_MS);
    isWriting = false;
    await Promise.all(writers);
    const probe = await probing;
    await database.close();

    const timings = Object.fromEntries(
      [...output.matchAll(/(\w+_ms)=(\d+)/g)].map((match) => [match[1]!, Number(match[2])]),
    );
    const check = await openDatabase({ kind: 'postgres', url: cluster.bouncerUrl, poolMax: 2 });
    let lostCommitted: number;
    let invariantsHeld: boolean;
    try {
      const rows = (await check.db.execute(
        sql`SELECT count(*)::text AS n FROM ledger_entries WHERE idempotency_key LIKE ${`drill-${run}-%`}`,
      )) as unknown as { rows: { n: string }[] };
      const found = Number(rows.rows[0]?.n ?? 0);
      lostCommitted = Math.max(0, acknowledged.length - found);
      invariantsHeld = (await checkLedgerInvariants(check.db)).isHeld;
    } finally {
      await check.close();
    }
    const report = {
      replication: cluster.isSync ? 'sync' : 'async',
      ...timings,
      writesRefusedMsLongestGap: Math.round(longestGapMs),
      haproxyNotReadyMs: Math.round(probe.haproxyNotReadyMs),
      notReadyProbes: probe.notReady,
      writeErrors,
      acknowledged: acknowledged.length,
      acknowledgedBeforeFailover: beforeFailover,
      lostCommitted,
      invariantsHeld,
    };
    console.log(JSON.stringify(report));
    return invariantsHeld && (lostCommitted === 0 || !cluster.isSync) ? 0 : 1;
  } finally {
    if (values.keep) log(`cluster kept: CLUSTER_DIR=${cluster.dir} CLUSTER_PORT_BASE=${cluster.portBase}`);
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
