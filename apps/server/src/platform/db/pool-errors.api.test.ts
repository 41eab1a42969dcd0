import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test/helpers.ts';
import { openDatabase } from './client.ts';
import { queryRows } from './rows.ts';

/**
 * A pooled connection lost between two queries of a transaction (what a PgBouncer restart or a
 * primary failover does, docs/scale.md "Failover"): the transaction fails, the process does not
 * (an unhandled 'error' of the checked-out client would end it, and this test run with it), and
 * the pool serves the next query on a fresh connection. PostgreSQL project only.
 */
describe.skipIf(testDatabaseKind !== 'postgres')('a pooled connection lost inside a transaction', () => {
  it('fails that transaction, not the process, and the pool serves the next query', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const database = await openDatabase({ kind: 'postgres', url, poolMax: 1 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const transaction = database.db.transaction(async (tx) => {
        const [row] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
        await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
        // Wait until the server has ended that session (its last message is then on the way to the client).
        for (;;) {
          const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [row!.pid]);
          if (rows.length === 0) break;
        }
        await tx.execute(sql`SELECT 1`);
      });
      await expect(transaction).rejects.toThrow();
      const [one] = await queryRows<{ one: number }>(database.db, sql`SELECT 1 AS one`);
      expect(one?.one).toBe(1);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
