import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

/**
 * `scripts/cluster.sh` driven from a script: the cluster's directory, ports and URLs, and its
 * commands run as child processes (`up`, `down`, `kill-server N`, `start-server N`,
 * `restart-bouncer`, `stop-replica`, `start-replica`, `failover`). Port layout as in cluster.sh:
 * primary +0, standby +1, PgBouncer +2, Redis +3, HAProxy +10, servers +11…
 */
export const REPOSITORY_DIR = join(import.meta.dirname, '../../../..');
const CLUSTER_SH = join(REPOSITORY_DIR, 'scripts/cluster.sh');

export interface ClusterHandle {
  dir: string;
  portBase: number;
  servers: number;
  isSync: boolean;
  /** HAProxy in front of the servers. */
  baseUrl: string;
  primaryUrl: string;
  standbyUrl: string;
  bouncerUrl: string;
  env: NodeJS.ProcessEnv;
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose cluster ports (+0…+3, +10…+10+servers) are all free on loopback. */
export async function freeClusterPortBase(servers: number): Promise<number> {
  const offsets = [0, 1, 2, 3, ...Array.from({ length: servers + 1 }, (_unused, k) => 10 + k)];
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const answers = await Promise.all(offsets.map((offset) => isPortFree(base + offset)));
    if (answers.every(Boolean)) return base;
  }
}

/** The handle of a cluster in `dir` on `portBase` (nothing is started). */
export function clusterHandle(dir: string, portBase: number, servers: number, isSync: boolean): ClusterHandle {
  const url = (offset: number) => `postgres://postgres@127.0.0.1:${portBase + offset}/meridian`;
  return {
    dir,
    portBase,
    servers,
    isSync,
    baseUrl: `http://127.0.0.1:${portBase + 10}`,
    primaryUrl: url(0),
    standbyUrl: url(1),
    bouncerUrl: url(2),
    env: {
      ...process.env,
      CLUSTER_DIR: dir,
      CLUSTER_PORT_BASE: String(portBase),
      CLUSTER_SERVERS: String(servers),
      CLUSTER_SYNC: isSync ? '1' : '',
    },
  };
}

/**
 * Run `scripts/cluster.sh <args>` for the cluster; resolves with its output.
 * @throws Error with the output when it exits non-zero.
 */
export function clusterCommand(cluster: ClusterHandle, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [CLUSTER_SH, ...args], { env: cluster.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`cluster.sh ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/** One query on a fresh connection (a failover moves the primary: no pool is kept across it). */
export async function queryOnce<T extends Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
