import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { postEntry } from './ledger.service.ts';
import { platformAccount, transfer, userAccount } from './ledger.types.ts';

/**
 * The SQL functions' source files are their deployed definitions: each
 * `modules/<name>/sql/<function>.sql` holds the full `CREATE OR REPLACE FUNCTION` of the function
 * as the migrations leave it, and a change to a function ships as a new migration that pastes the
 * changed file. For each file: `pg_get_functiondef` of the migrated database, then, in a
 * transaction rolled back afterwards, the file executed and `pg_get_functiondef` read again — the
 * two must be equal (body, arguments, result and SET clauses). Runs on PGlite and PostgreSQL.
 */
const MODULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

interface SqlSource {
  /** Path relative to `modules/`, for messages. */
  path: string;
  functionName: string;
  text: string;
}

/** Every `modules/<name>/sql/*.sql` file; its name is the function it defines. */
function readSqlSources(): SqlSource[] {
  const sources: SqlSource[] = [];
  for (const module of readdirSync(MODULES_DIR, { withFileTypes: true })) {
    if (!module.isDirectory()) continue;
    const dir = join(MODULES_DIR, module.name, 'sql');
    let files: string[];
    try {
      files = readdirSync(dir).filter((file) => file.endsWith('.sql'));
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      sources.push({
        path: `${module.name}/sql/${file}`,
        functionName: basename(file, '.sql'),
        text: readFileSync(join(dir, file), 'utf8'),
      });
    }
  }
  return sources;
}

/** `pg_get_functiondef` of the one function named `name` in the current schema (overloads fail the test). */
async function functionDefinition(db: DbOrTx, name: string): Promise<string> {
  const rows = await queryRows<{ definition: string }>(
    db,
    sql`SELECT pg_get_functiondef(p.oid) AS definition FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = current_schema() AND p.proname = ${name}`,
  );
  expect(rows.length, `functions named ${name}`).toBe(1);
  return rows[0]!.definition;
}

/** Thrown to roll the probing transaction back. */
class Rollback extends Error {}

/** SQLSTATE and message of the PostgreSQL error in `error` or its causes (Drizzle wraps driver errors). */
function databaseError(error: unknown): { code: string; message: string } | null {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if (
      typeof current === 'object' &&
      'code' in current &&
      typeof current.code === 'string' &&
      'message' in current &&
      typeof current.message === 'string'
    ) {
      return { code: current.code, message: current.message };
    }
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return null;
}

describe('SQL function source files', () => {
  let database: Database & { dispose(): Promise<void> };
  const sources = readSqlSources();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.dispose());

  it('has one source file per ledger, exchange, card function and the identity freeze functions, each defining the function it is named after', async () => {
    const rows = await queryRows<{ proname: string }>(
      database.db,
      sql`SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = current_schema() AND (p.proname LIKE 'ledger\_%' OR p.proname LIKE 'exchange\_%'
            OR p.proname LIKE 'card\_%' OR p.proname IN ('identity_is_frozen', 'identity_frozen_accounts'))
          ORDER BY p.proname`,
    );
    expect(sources.map((source) => source.functionName).sort()).toEqual(rows.map((row) => row.proname));
    for (const source of sources) {
      const defined = /CREATE OR REPLACE FUNCTION\s+(\w+)\s*\(/i.exec(source.text)?.[1];
      expect(defined, source.path).toBe(source.functionName);
    }
  });

  it.each(sources.map((source) => [source.path, source] as const))(
    '%s is the migrated definition',
    async (_path, source) => {
      const migrated = await functionDefinition(database.db, source.functionName);
      let fromSource = '';
      await database.db
        .transaction(async (tx) => {
          await tx.execute(sql.raw(source.text));
          fromSource = await functionDefinition(tx, source.functionName);
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
      expect(fromSource, `${source.path} differs from the migrated function: ship the change as a new migration`).toBe(
        migrated,
      );
    },
  );

  it('applies balance changes in one place: a refusal raises ML001 with the caller named, and changes nothing', async () => {
    const { db } = database;
    const hot = platformAccount('PLATFORM_HOT_WALLET', 'USDT');
    const { entry } = await postEntry(db, {
      kind: 'DEPOSIT',
      reference: 'test',
      idempotencyKey: 'sql-source-1',
      postings: transfer(hot, userAccount('ada', 'USER_AVAILABLE', 'USDT'), 5n),
    });
    const [hotId, adaId] = entry.postings.map((posting) => posting.accountId);
    const balances = sql`SELECT id, balance_minor::text AS balance FROM ledger_accounts WHERE id IN (${hotId}, ${adaId}) ORDER BY id`;
    const before = await queryRows(db, balances);
    // Ada has 5: taking 6 is refused; the platform account's change in the same call is undone too.
    const refusal = await db
      .execute(
        sql`SELECT ledger_apply_deltas(ARRAY[${hotId}, ${adaId}]::bigint[], ARRAY[6, -6]::numeric[], 'ledger_post')`,
      )
      .then(
        () => null,
        (error: unknown) => databaseError(error),
      );
    expect(refusal).toEqual({ code: 'ML001', message: 'ledger_post: insufficient balance' });
    expect(await queryRows(db, balances)).toEqual(before);
    // Zero changes are skipped, the others applied (in a transaction rolled back: no postings back them).
    let after: { balance: string }[] = [];
    await db
      .transaction(async (tx) => {
        await tx.execute(
          sql`SELECT ledger_apply_deltas(ARRAY[${hotId}, ${adaId}]::bigint[], ARRAY[5, -5]::numeric[], 'ledger_post_batch')`,
        );
        await tx.execute(
          sql`SELECT ledger_apply_deltas(ARRAY[${hotId}, ${adaId}]::bigint[], ARRAY[-5, 0]::numeric[], 'ledger_post_batch')`,
        );
        after = await queryRows<{ balance: string }>(tx, balances);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    expect(after.map((row) => row.balance)).toEqual(['-5', '0']);
  });
});
