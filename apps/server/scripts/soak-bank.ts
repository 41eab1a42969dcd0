/**
 * `npm run soak:bank -- --ops 2000 [--restarts 1]`: money under crashes. A worker process moves money between 20
 * users (internal transfers, withdrawals frozen at request, cancels) as fast as it can; this
 * process SIGKILLs it at random moments (0.3–1.5 s) and starts it again on the same database,
 * until `--ops` entries exist (and at least `--restarts` kills happened). Then it prints, as one JSON line: operations done, restarts, drift
 * (the sum of every balance per asset, which must be 0), negative user balances (must be 0),
 * withdrawals whose ledger entries do not match their status (must be 0), and the invariants.
 *
 * Database: DATABASE_URL (postgres://…) or an embedded PGlite in --data-dir (default a temp dir).
 * Exit code 0 when everything holds.
 */
import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { type DatabaseTarget, openDatabase } from '../src/platform/db/client.ts';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';

const { values } = parseArgs({
  options: { ops: { type: 'string', default: '2000' }, restarts: { type: 'string', default: '1' }, 'data-dir': { type: 'string' }, worker: { type: 'boolean', default: false } },
});
const USERS = 20;
const FUNDING = '1000';
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'meridian-soak-'));
const target: DatabaseTarget = databaseUrl ? { kind: 'postgres', url: databaseUrl, poolMax: 8 } : { kind: 'pglite', dataDir };
const userId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** The worker: endless concurrent money movements until killed. */
async function worker(): Promise<void> {
  const { postEntry } = await import('../src/modules/ledger/ledger.service.ts');
  const { platformAccount, transfer, userAccount } = await import('../src/modules/ledger/ledger.types.ts');
  const { WalletService } = await import('../src/modules/wallet/wallet.service.ts');
  const { generateDemoXpubs, parseAccountXpub } = await import('../src/modules/wallet/wallet.addresses.ts');
  const { seedWallet } = await import('../src/modules/wallet/wallet.seed.ts');
  const { parseAmountMinor } = await import('@meridian/contracts/money');
  const database = await openDatabase(target);
  await database.migrate(findMigrationsDir());
  await seedWallet(database.db);
  const xpubs = generateDemoXpubs();
  const wallet = new WalletService(database.db, {
    xpubs: { bitcoin: parseAccountXpub(xpubs.bitcoin), evm: parseAccountXpub(xpubs.evm), tron: parseAccountXpub(xpubs.tron) },
    identity: { withdrawalHoldUntil: async () => null, findUserIdByEmail: async () => null },
    prices: { usdPerCoin: async () => null },
    isWhitelistMode: false,
    log: { warn: () => {}, info: () => {} },
  });
  for (let i = 0; i < USERS; i += 1) {
    // Idempotent funding: a restarted worker replays these keys and moves nothing.
    await postEntry(database.db, { kind: 'DEPOSIT', reference: `soak:${i}`, idempotencyKey: `soak:fund:${i}`, postings: transfer(platformAccount('PLATFORM_HOT_WALLET', 'USDT'), userAccount(userId(i), 'USER_AVAILABLE', 'USDT'), parseAmountMinor(FUNDING, 'USDT')) });
  }
  process.stdout.write('ready\n');
  const one = async () => {
    const from = randomInt(USERS);
    const choice = randomInt(10);
    try {
      if (choice < 6) {
        const to = (from + 1 + randomInt(USERS - 1)) % USERS;
        await postEntry(database.db, { kind: 'INTERNAL_TRANSFER', reference: 'soak', idempotencyKey: `soak:${randomUUID()}`, postings: transfer(userAccount(userId(from), 'USER_AVAILABLE', 'USDT'), userAccount(userId(to), 'USER_AVAILABLE', 'USDT'), BigInt(1 + randomInt(50_000_000))) });
      } else if (choice < 9) {
        await wallet.requestWithdrawal(userId(from), { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: String(10 + randomInt(40)) }, randomUUID());
      } else {
        const page = await wallet.records(userId(from), { action: 'withdraw', status: 0, pageID: 1, pageSize: 5 });
        const waiting = page.list[0];
        if (waiting) await wallet.cancelWithdrawal(userId(from), Number(waiting.id));
      }
    } catch {
      // Refusals (insufficient balance, a state that changed) are expected under contention.
    }
  };
  for (;;) await Promise.all(Array.from({ length: 8 }, one));
}

interface Report {
  ops: number;
  restarts: number;
  driftMinor: string;
  negativeUserBalances: number;
  withdrawalMismatches: number;
  frozenMismatches: number;
  invariantsHeld: boolean;
}

/** Counts after the run (the worker is dead, so PGlite can be opened here). */
async function inspect(restarts: number): Promise<Report> {
  const { checkLedgerInvariants } = await import('../src/modules/ledger/ledger.invariants.ts');
  const database = await openDatabase(target);
  try {
    await database.migrate(findMigrationsDir());
    const one = async (query: ReturnType<typeof sql>) => {
      const result = (await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
      return result.rows[0] ?? {};
    };
    const ops = Number((await one(sql`SELECT count(*)::text AS n FROM ledger_entries`)).n);
    const drift = String((await one(sql`SELECT coalesce(sum(abs(s)), 0)::text AS d FROM (SELECT asset, sum(balance_minor) AS s FROM ledger_accounts GROUP BY asset) x`)).d);
    const negatives = Number((await one(sql`SELECT count(*)::text AS n FROM ledger_accounts WHERE owner_kind = 'user' AND balance_minor < 0`)).n);
    // Status 0 ⇔ a freeze and no return; status 4 ⇔ a freeze and a return; never a second of either.
    const mismatches = Number(
      (
        await one(sql`SELECT count(*)::text AS n FROM withdrawals w
          LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE kind = 'WITHDRAWAL_FREEZE') AS f, count(*) FILTER (WHERE kind = 'WITHDRAWAL_RETURN') AS r
                             FROM ledger_entries e WHERE e.reference = 'withdrawal:' || w.id) c ON true
          WHERE w.type = 'OUTER' AND NOT ((w.status = 0 AND c.f = 1 AND c.r = 0) OR (w.status = 4 AND c.f = 1 AND c.r = 1))`)
      ).n,
    );
    const frozenMismatches = Number(
      (
        await one(sql`SELECT count(*)::text AS n FROM ledger_accounts a
          LEFT JOIN (SELECT user_id::text AS uid, sum(amount_minor + fee_minor) AS held FROM withdrawals WHERE status IN (0, 1) GROUP BY user_id) w ON w.uid = a.owner_id
          WHERE a.type = 'USER_FROZEN' AND a.balance_minor <> coalesce(w.held, 0)`)
      ).n,
    );
    const invariants = await checkLedgerInvariants(database.db);
    return { ops, restarts, driftMinor: drift, negativeUserBalances: negatives, withdrawalMismatches: mismatches, frozenMismatches, invariantsHeld: invariants.isHeld };
  } finally {
    await database.close();
  }
}

async function runOnce(): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--worker', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  await new Promise<void>((resolve) => {
    let isReady = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (!isReady && chunk.toString().includes('ready')) {
        isReady = true;
        setTimeout(() => child.kill('SIGKILL'), 300 + randomInt(1200));
      }
    });
    child.on('exit', () => resolve());
  });
}

async function main(): Promise<number> {
  const target = Number(values.ops);
  let restarts = 0;
  for (let round = 0; round < 200; round += 1) {
    await runOnce();
    restarts += 1;
    const { ops } = await inspect(restarts);
    if (ops >= target && restarts >= Number(values.restarts)) break;
  }
  const report = await inspect(restarts);
  console.log(JSON.stringify(report));
  const isClean = report.driftMinor === '0' && report.negativeUserBalances === 0 && report.withdrawalMismatches === 0 && report.frozenMismatches === 0 && report.invariantsHeld;
  return isClean ? 0 : 1;
}

if (values.worker) await worker();
else process.exitCode = await main();
