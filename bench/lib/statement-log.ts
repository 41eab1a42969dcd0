/**
 * Records the SQL statements the server sends, for `bench:swap --statements`: on PostgreSQL every
 * `pg.Client#query` (pool connections, so BEGIN and COMMIT are counted), on PGlite every
 * statement Drizzle hands the embedded client (outside and inside transactions, with BEGIN and
 * COMMIT for each transaction). Load-independent evidence of a request's database work.
 */
import pg from 'pg';
import type { Database } from '../../apps/server/src/platform/db/client.ts';

/** The statements recorded while `isRecording`; `texts` in the order they were sent. */
export interface StatementLog {
  isRecording: boolean;
  texts: string[];
}

const textOf = (query: unknown): string =>
  typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text ?? '(query object)');

/** Wrap the database's driver so that statements are appended to `log.texts` while it records. */
export function recordStatements(database: Database, log: StatementLog): void {
  const note = (text: string) => {
    if (log.isRecording) log.texts.push(text.replace(/\s+/g, ' ').trim());
  };
  if (database.kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      note(textOf(args[0]));
      return query.apply(this, args);
    };
    return;
  }
  type Query = (sql: string, ...rest: unknown[]) => Promise<unknown>;
  type Transaction = (callback: (tx: { query: Query }) => Promise<unknown>) => Promise<unknown>;
  const client = (database.db as unknown as { session: { client: { query: Query; transaction: Transaction } } }).session
    .client;
  const query = client.query.bind(client);
  client.query = (sql, ...rest) => (note(sql), query(sql, ...rest));
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction(async (tx) => {
      note('BEGIN');
      const txQuery = tx.query.bind(tx);
      tx.query = (sql, ...rest) => (note(sql), txQuery(sql, ...rest));
      const result = await callback(tx);
      note('COMMIT');
      return result;
    });
}
