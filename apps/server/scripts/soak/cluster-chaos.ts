import { randomInt } from 'node:crypto';
import { type ClusterHandle, clusterCommand, queryOnce } from './cluster.ts';

/**
 * The cluster soak's failures, one at a time, every 4–10 s until `isOver()`: a server process
 * killed with SIGKILL and started again (waited for until `/readyz` answers, so at most one is down
 * at a time), PgBouncer restarted, or the hot standby stopped for 3–8 s and started again.
 */
export interface ChaosFigures {
  serverKills: number;
  bouncerRestarts: number;
  replicaStops: number;
  /** From the kill to `/readyz` of the restarted process, each in ms. */
  serverRestartMs: number[];
  /** Failures of a cluster.sh command (a start that timed out …), with its message. */
  commandFailures: string[];
}

const PAUSE_MS_MIN = 4_000;
const PAUSE_MS_SPREAD = 6_000;
const REPLICA_DOWN_MS_MIN = 3_000;
const REPLICA_DOWN_MS_SPREAD = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChaos(
  cluster: ClusterHandle,
  isOver: () => boolean,
  log: (line: string) => void,
): Promise<ChaosFigures> {
  const figures: ChaosFigures = {
    serverKills: 0,
    bouncerRestarts: 0,
    replicaStops: 0,
    serverRestartMs: [],
    commandFailures: [],
  };
  const attempt = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      figures.commandFailures.push(`${what}: ${error instanceof Error ? error.message.slice(0, 400) : String(error)}`);
      log(`chaos: ${what} failed`);
    }
  };
  while (!isOver()) {
    await sleep(PAUSE_MS_MIN + randomInt(PAUSE_MS_SPREAD));
    if (isOver()) break;
    const roll = randomInt(100);
    if (roll < 50) {
      const n = 1 + randomInt(cluster.servers);
      const startedMs = performance.now();
      await attempt(`kill-server ${n}`, async () => {
        await clusterCommand(cluster, 'kill-server', String(n));
        figures.serverKills += 1;
        log(`chaos: server ${n} killed (SIGKILL)`);
        await clusterCommand(cluster, 'start-server', String(n));
        figures.serverRestartMs.push(Math.round(performance.now() - startedMs));
        log(`chaos: server ${n} ready again after ${Math.round(performance.now() - startedMs)} ms`);
      });
    } else if (roll < 75) {
      await attempt('restart-bouncer', async () => {
        await clusterCommand(cluster, 'restart-bouncer');
        figures.bouncerRestarts += 1;
        log('chaos: PgBouncer restarted');
      });
    } else {
      await attempt('stop-replica', async () => {
        await clusterCommand(cluster, 'stop-replica');
        figures.replicaStops += 1;
        log('chaos: replica stopped');
        await sleep(REPLICA_DOWN_MS_MIN + randomInt(REPLICA_DOWN_MS_SPREAD));
        await clusterCommand(cluster, 'start-replica');
        log('chaos: replica started');
      });
    }
  }
  return figures;
}

/** Replica lag and WAL, sampled on the primary once a second while the soak runs. */
export interface ReplicationSample {
  /** `replay_lag` of the standby (ms), null while it is not connected. */
  replayLagMs: number | null;
  /** Bytes of WAL the standby has not yet replayed. */
  replayLagBytes: number | null;
}

/** Sample until `isOver()`; samples that fail (the primary busy) are skipped. */
export async function sampleReplication(cluster: ClusterHandle, isOver: () => boolean): Promise<ReplicationSample[]> {
  const samples: ReplicationSample[] = [];
  while (!isOver()) {
    try {
      const [row] = await queryOnce<{ lag_ms: string | null; lag_bytes: string | null }>(
        cluster.primaryUrl,
        `SELECT (extract(epoch FROM replay_lag) * 1000)::text AS lag_ms,
                pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS lag_bytes
         FROM pg_stat_replication WHERE application_name = 'standby1'`,
      );
      samples.push({
        replayLagMs: row?.lag_ms ? Number(row.lag_ms) : null,
        replayLagBytes: row?.lag_bytes ? Number(row.lag_bytes) : null,
      });
    } catch {
      // The next sample will do.
    }
    await sleep(1000);
  }
  return samples;
}
