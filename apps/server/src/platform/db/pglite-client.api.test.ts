import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '../../../test/helpers.ts';
import { PREPARED_STATEMENTS_MAX } from './pglite-client.ts';

/**
 * The embedded database's Drizzle client (platform/db/pglite-client.ts): statements run a second
 * time are prepared under a name, and must answer exactly as PGlite's own path did the first time
 * — rows, types, errors, locks. PGlite only: PostgreSQL goes through node-postgres.
 */
describe.skipIf(testDatabaseKind !== 'pglite')('PGlite client with prepared statements', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(
      sql`CREATE TABLE prepared_probe (id int PRIMARY KEY, note text, amount numeric(38, 0), at timestamptz, tags text[], doc jsonb)`,
    );
  });
  afterAll(async () => database.dispose());

  const rowsOf = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const preparedCount = async () =>
    Number((await rowsOf(sql`SELECT count(*)::int AS n FROM pg_prepared_statements`))[0]!.n);

  it('answers a statement the same on its first (unprepared) and later (prepared) runs', async () => {
    await database.db.execute(
      sql`INSERT INTO prepared_probe VALUES (1, ${'a’b'}, ${'123456789012345678901234567890'}, ${'2026-11-21T08:00:00.123Z'}, ${'{x,"y z"}'}, ${JSON.stringify({ k: [1, 'two'] })}), (2, NULL, NULL, NULL, NULL, NULL)`,
    );
    const read = () =>
      rowsOf(
        sql`SELECT id, note, amount, at, tags, doc, ${7}::int8 AS big, ${true}::boolean AS flag FROM prepared_probe WHERE id >= ${1} ORDER BY id`,
      );
    const first = await read();
    const prepared = [await read(), await read()];
    expect(prepared).toEqual([first, first]);
    expect(first[0]).toMatchObject({
      id: 1,
      note: 'a’b',
      amount: '123456789012345678901234567890',
      tags: ['x', 'y z'],
      doc: { k: [1, 'two'] },
      flag: true,
    });
    // Timestamps stay PostgreSQL's text (Drizzle maps them), NULLs stay null.
    expect(first[0]!.at).toBe('2026-11-21 08:00:00.123+00');
    expect(first[1]).toMatchObject({ note: null, amount: null, at: null, tags: null, doc: null });
    expect(
      await rowsOf(
        sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%FROM prepared_probe WHERE id >=%'`,
      ),
    ).toHaveLength(1);
  });

  it('raises the database error with its SQLSTATE and constraint on the prepared path, and changes nothing', async () => {
    const insert = (id: number) =>
      database.db.execute(sql`INSERT INTO prepared_probe (id, note) VALUES (${id}, 'dup')`);
    await insert(10);
    await insert(11);
    const failure = await insert(10).catch(
      (error: unknown) => error as { cause?: { code?: string; constraint?: string } },
    );
    expect(failure).toMatchObject({ cause: { code: '23505', constraint: 'prepared_probe_pkey' } });
    expect(await rowsOf(sql`SELECT id FROM prepared_probe WHERE note = 'dup' ORDER BY id`)).toEqual([
      { id: 10 },
      { id: 11 },
    ]);
  });

  it('forgets a prepared statement whose table changed shape, and runs it again prepared afresh', async () => {
    const readAll = () => rowsOf(sql`SELECT * FROM prepared_probe WHERE id = ${1}`);
    await readAll();
    await readAll();
    await database.db.execute(sql`ALTER TABLE prepared_probe ADD COLUMN extra int DEFAULT 5`);
    // PostgreSQL refuses the old plan once (0A000 "cached plan must not change result type")…
    await expect(readAll()).rejects.toMatchObject({ cause: { code: '0A000' } });
    // …then the statement is prepared again and sees the new column.
    expect((await readAll())[0]).toMatchObject({ id: 1, extra: 5 });
    expect((await readAll())[0]).toMatchObject({ id: 1, extra: 5 });
  });

  it('keeps statements outside a transaction waiting until it ends, and rolls back prepared writes', async () => {
    const count = () => rowsOf(sql`SELECT count(*)::int AS n FROM prepared_probe WHERE note = ${'tx'}`);
    const insert = (id: number) => sql`INSERT INTO prepared_probe (id, note) VALUES (${id}, ${'tx'})`;
    await count();
    await count();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(insert(20));
      await tx.execute(insert(21));
      await gate;
    });
    await sleep(20);
    let outside: number | undefined;
    const reading = count().then((rows) => (outside = Number(rows[0]!.n)));
    await sleep(50);
    expect(outside).toBeUndefined();
    open();
    await transaction;
    await reading;
    expect(outside).toBe(2);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(insert(22));
        await tx.execute(insert(23));
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await count())[0]!.n).toBe(2);
  });

  it(`keeps at most ${PREPARED_STATEMENTS_MAX} statements prepared, closing the least recently used`, async () => {
    const distinct = PREPARED_STATEMENTS_MAX + 30;
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < distinct; index++)
        await database.db.execute(sql`SELECT ${index}::int AS ${sql.raw(`c${index}`)}`);
    }
    expect(await preparedCount()).toBeLessThanOrEqual(PREPARED_STATEMENTS_MAX + 1);
  });

  it('runs a prepared statement evicted while it waited for the database, and closes what it prepared', async () => {
    const readOne = () =>
      rowsOf(sql`SELECT id FROM prepared_probe WHERE id = ${1} AND note IS NOT DISTINCT FROM ${'a’b'}`);
    await readOne();
    await readOne();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const transaction = database.db.transaction(async () => gate);
    await sleep(20);
    // Queued behind the transaction: the statement, then enough others to evict it from the cache.
    const waiting = readOne();
    const others = Array.from({ length: PREPARED_STATEMENTS_MAX + 10 }, (_unused, index) =>
      rowsOf(sql`SELECT ${index}::int AS ${sql.raw(`evict${index}`)}`),
    );
    open();
    await transaction;
    expect(await waiting).toEqual([{ id: 1 }]);
    await Promise.all(others);
    expect(await preparedCount()).toBeLessThanOrEqual(PREPARED_STATEMENTS_MAX + 1);
  });

  it('refuses a parser for a type it does not keep as text', async () => {
    const client = (
      database.db as unknown as {
        $client: { query: (text: string, params: unknown[], options: object) => Promise<unknown> };
      }
    ).$client;
    await expect(
      client.query('SELECT 1::int AS n', [], { parsers: { 23: (value: string) => Number(value) * 2 } }),
    ).rejects.toThrow('type 23');
  });
});
