/**
 * `npm run bench:chain`: the EVM deposit watcher's throughput — blocks processed per second with
 * 10,000 watched deposit addresses and 1,000 transfers per block — and the peak resident memory of
 * this process (the watcher, the app, and on PGlite the database too).
 *
 * The real app (`buildApp`, production code paths) runs on an in-memory PGlite, and on PostgreSQL
 * too when TEST_DATABASE_URL or DATABASE_URL (postgres://…) is set (a scratch database
 * `meridian_bench_<pid>`, dropped afterwards). The watcher reads a synthetic node (`EvmNode` in
 * memory: each block's 1,000 USDT `Transfer` logs are generated when asked) so the figures are the
 * watcher's and the database's, not a node's RPC. Two runs per database, interleaved:
 *   - `none ours`: 1,000 transfers per block, none to a watched address (the look-up cost only);
 *   - `all ours`: 1,000 transfers per block, every one to a watched address (each recorded as a
 *     pending deposit, then credited once its block has N confirmations — the full path).
 *
 *   npm run bench:chain [-- --addresses 10000 --transfers 1000 --blocks 20 --confirmations 3 --only pglite|postgres]
 *     [--log-sql FILE (each statement of the `all ours` runs)] [--profile DIR (a CPU profile per run)]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres/session';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { inProcessLeader } from '../apps/server/src/modules/chain/chain.leader.ts';
import type { EvmBlock, EvmNode, EvmTransfer } from '../apps/server/src/modules/chain/chain.types.ts';
import { EvmWatcher } from '../apps/server/src/modules/chain/chain.watcher.ts';
import { users } from '../apps/server/src/modules/identity/identity.tables.ts';
import { toChecksumAddress } from '../apps/server/src/modules/wallet/wallet.addresses.ts';
import { seedWallet } from '../apps/server/src/modules/wallet/wallet.seed.ts';
import { depositAddresses } from '../apps/server/src/modules/wallet/wallet.tables.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';

const { values: args } = parseArgs({
  options: {
    addresses: { type: 'string', default: '10000' },
    transfers: { type: 'string', default: '1000' },
    blocks: { type: 'string', default: '20' },
    confirmations: { type: 'string', default: '3' },
    only: { type: 'string' },
    'log-sql': { type: 'string' },
    profile: { type: 'string' },
  },
});
const ADDRESSES = Number(args.addresses);
const TRANSFERS = Number(args.transfers);
const BLOCKS = Number(args.blocks);
const CONFIRMATIONS = Number(args.confirmations);
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';

/**
 * Statements the app sends, counted where Drizzle turns each query into SQL text (every select,
 * insert, update and `execute`, the ledger's batch function included; BEGIN and COMMIT are not).
 */
let statements = 0;
const sqlToQuery = PgDialect.prototype.sqlToQuery;
PgDialect.prototype.sqlToQuery = function countedSqlToQuery(this: PgDialect, ...queryArgs) {
  statements += 1;
  return sqlToQuery.apply(this, queryArgs);
} as typeof sqlToQuery;

/**
 * `--log-sql FILE`: every statement of the `all ours` runs, one a line: the milliseconds from its
 * execution's start to its rows (both drivers), a tab, its text (parameters left out).
 */
const sqlLog: string[] = [];
let isLoggingSql = false;
for (const prepared of [PglitePreparedQuery, NodePgPreparedQuery]) {
  const execute = prepared.prototype.execute;
  prepared.prototype.execute = async function timedExecute(this: { queryString: string }, ...executeArgs: unknown[]) {
    if (!isLoggingSql) return execute.apply(this, executeArgs as never);
    const started = performance.now();
    try {
      return await execute.apply(this, executeArgs as never);
    } finally {
      sqlLog.push(
        `${(performance.now() - started).toFixed(2)}\t${this.queryString.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
    }
  } as typeof execute;
}

/** `--profile DIR`: a CPU profile of each run alone (setup left out), `<database>-<run>.cpuprofile`. */
const profiler = args.profile === undefined ? undefined : new Session();
if (profiler) {
  mkdirSync(args.profile!, { recursive: true });
  profiler.connect();
  await profiler.post('Profiler.enable');
}

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

/**
 * A node in memory: block `n` (from `first`) holds `TRANSFERS` USDT transfers to `targets`
 * (round-robin from a per-block offset); hashes chain through `parentHash`. The tip grows as the
 * watcher asks (`tipOf`), so every poll sees one more block until `BLOCKS` + N are out.
 */
function syntheticNode(first: number, targets: string[], lastBlock: number): EvmNode {
  const hashes = new Map<number, string>([[first - 1, hex(32)]]);
  const hashOf = (n: number) => {
    if (!hashes.has(n)) hashes.set(n, hex(32));
    return hashes.get(n)!;
  };
  return {
    chainId: async () => 1,
    latestBlockNumber: async () => lastBlock,
    finalizedBlockNumber: async () => null,
    blockHash: async (n) => (n <= lastBlock ? hashOf(n) : null),
    tokenDecimals: async () => 6,
    readBlock: async (n): Promise<EvmBlock | null> => {
      if (n > lastBlock) return null;
      const transfers: EvmTransfer[] = [];
      for (let i = 0; i < TRANSFERS; i += 1) {
        transfers.push({
          txHash: hex(32),
          logIndex: i,
          token: USDT,
          from: hex(20),
          to: targets.length === 0 ? hex(20) : targets[(n * 7919 + i) % targets.length]!,
          value: 5_000_000n,
        });
      }
      return { number: n, hash: hashOf(n), parentHash: hashOf(n - 1), transfers };
    },
  };
}

/**
 * `ADDRESSES` users (every other one reading zh-HK, so a credit's message is written in both
 * languages) with one watched deposit address each; the addresses, lowercase.
 */
async function loadAddresses(database: Database): Promise<string[]> {
  const people = Array.from({ length: ADDRESSES }, (_, index) => ({
    id: randomUUID(),
    email: `chain-bench-${index}@example.test`,
    locale: index % 2 === 0 ? 'en-US' : 'zh-HK',
  }));
  for (let i = 0; i < people.length; i += 1000) await database.db.insert(users).values(people.slice(i, i + 1000));
  const rows = people.map((person, index) => ({
    userId: person.id,
    chain: 'evm',
    derivationIndex: 1_000_000 + index,
    address: toChecksumAddress(randomBytes(20).toString('hex')),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await database.db.insert(depositAddresses).values(rows.slice(i, i + 1000));
  return rows.map((row) => row.address.toLowerCase());
}

async function run(database: Database, label: string): Promise<void> {
  await database.migrate(findMigrationsDir());
  await seedWallet(database.db);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'memory://',
    JOBS_ENABLED: 'false',
  });
  const app = await buildApp({ config, database, sessionSecret: randomBytes(32).toString('hex'), logger: false });
  await app.ready();
  const watched = await loadAddresses(database);
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  let first = 1000;
  for (const [name, targets] of [
    ['none ours', []],
    ['all ours', watched],
  ] as const) {
    const lastBlock = first + BLOCKS - 1;
    const watcher = new EvmWatcher({
      db: database.db,
      node: syntheticNode(first, [...targets], lastBlock),
      wallet: app.wallet,
      coins: { confirmationsFor: async () => CONFIRMATIONS, minimumOf: () => '1', tokens: { USDT } },
      leader: inProcessLeader(),
      pollIntervalMs: 1000,
      blocksPerPoll: 1,
      startBlock: first,
      now: () => new Date(),
      log,
    });
    let peakRssBytes = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss)), 50);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const statementsBefore = statements;
    isLoggingSql = args['log-sql'] !== undefined && name === 'all ours';
    if (profiler) await profiler.post('Profiler.start');
    let credited = 0;
    let found = 0;
    for (let polls = 0; polls < BLOCKS; polls += 1) {
      const report = await watcher.pollOnce();
      credited += report.depositsCredited;
      found += report.depositsFound;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    isLoggingSql = false;
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(`${args.profile}/${label}-${name.replace(' ', '-')}.cpuprofile`, JSON.stringify(profile));
    }
    clearInterval(sampler);
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
    console.log(
      `${label.padEnd(8)} ${name.padEnd(9)} ${BLOCKS} blocks × ${TRANSFERS} transfers, ${ADDRESSES} watched: ` +
        `${(BLOCKS / seconds).toFixed(2)} blocks/s (${((BLOCKS * TRANSFERS) / seconds).toFixed(0)} transfers/s), ` +
        `${found} deposits found, ${credited} credited, ` +
        `${((statements - statementsBefore) / BLOCKS).toFixed(1)} statements/block, ` +
        `${((cpu.user + cpu.system) / 1000 / BLOCKS).toFixed(0)} ms CPU/block, ` +
        `peak RSS ${(peakRssBytes / 2 ** 20).toFixed(0)} MB`,
    );
    first = lastBlock + 1000;
    // A fresh chain id cursor per run: the second watcher starts at its own first block.
    await database.db.execute(sql`DELETE FROM chain_cursors`);
  }
  await app.close();
  if (args['log-sql'] !== undefined) writeFileSync(args['log-sql'], sqlLog.join('\n') + '\n');
}

if (args.only !== 'postgres') {
  const memory = await openDatabase({ kind: 'memory' });
  try {
    await run(memory, 'pglite');
  } finally {
    await memory.close();
  }
}
const pgUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) => url?.startsWith('postgres'));
if (pgUrl && args.only !== 'pglite') {
  const name = `meridian_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 4 });
  try {
    await run(database, 'postgres');
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
