import { type PGlite, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';
import { LRUCache } from 'lru-cache';
import { isSqlState } from './sql-state.ts';

/**
 * The PostgreSQL types read as PostgreSQL's own text rather than parsed: the ones Drizzle's PGlite
 * driver gives identity parsers (timestamp 1114, timestamptz 1184, interval 1186, date 1082, and
 * the arrays numeric[] 1231, timestamp[] 1115, timestamptz[] 1185, interval[] 1187, date[] 1182),
 * so values keep the form node-postgres gives on PostgreSQL.
 */
export const TEXT_TYPE_IDS: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const TEXT_TYPES = new Set(TEXT_TYPE_IDS.map(String));
const keepText = (value: string) => value;
const ROW_MODE_OPTIONS = { array: { rowMode: 'array' }, object: { rowMode: 'object' } } as const satisfies Record<
  string,
  QueryOptions
>;

/** Statements kept prepared (named, planned once) per database; the least recently used is closed. */
export const PREPARED_STATEMENTS_MAX = 500;
/** A statement text is prepared the second time it is run (one-off statements, e.g. migrations, are not). */
const PREPARE_AFTER_USES = 2;
/** SQLSTATE 0A000 "cached plan must not change result type": the statement's tables changed shape. */
const SQLSTATE_FEATURE_NOT_SUPPORTED = '0A000';

/** What Drizzle's PGlite driver calls on its client (drizzle-orm/pglite/session.js). */
export type DrizzlePgliteClient = Pick<PGlite, 'query' | 'transaction'>;

interface PreparedStatement {
  name: string;
  /** Parameter types PostgreSQL inferred ($1, $2, …), for PGlite's serializers. */
  paramTypeIds: number[];
  /** Result columns (empty for a statement without rows). */
  fields: { name: string; dataTypeID: number }[];
}

/** A statement text: how often it ran, and its prepared form once it has one. */
interface StatementUse {
  uses: number;
  prepared?: PreparedStatement;
}

/**
 * PGlite as Drizzle's client, with two costs of PGlite's own `query` taken out (they were
 * most of the embedded database's time per swap):
 *
 * - **Parsers once per instance.** Drizzle passes `{ rowMode, parsers }` with every statement;
 *   given `parsers`, PGlite copies its whole parser table for that statement, which cost more than
 *   running a small one (0.30 ms vs 0.07 ms for `SELECT $1::int`). The instance's own parsers keep
 *   `TEXT_TYPE_IDS` as text (set after `PGlite.create`, whose array-type set-up would replace them);
 *   a statement asking for a parser of another type is refused rather than parsed differently.
 * - **Prepared statements.** PGlite parses, describes and plans every statement anew (an unnamed
 *   statement, six calls into the database). A statement text run a second time is prepared under
 *   a name (Parse + Describe, once) and from then on executed with one Bind + Execute + Sync call,
 *   its plan cached by PostgreSQL (`plan_cache_mode` auto: a generic plan once it costs no more
 *   than the custom ones, as for any prepared statement; PostgreSQL re-plans after DDL). Up to
 *   `PREPARED_STATEMENTS_MAX` are kept (LRU; the evicted one is closed). A statement whose result
 *   shape changed under it (SQLSTATE 0A000 after an ALTER) is forgotten, and the error stands.
 *
 * Statements outside a transaction take PGlite's transaction and query locks and flush the file
 * system afterwards, inside one its query lock only — as PGlite's own `query` does.
 */
export function drizzleClientOf(pglite: PGlite): DrizzlePgliteClient {
  for (const typeId of TEXT_TYPE_IDS) pglite.parsers[typeId] = keepText;
  const statements = new PreparedStatements(pglite);
  return {
    query: (sql, params, options) => statements.query(pglite, false, sql, params, options),
    transaction: (callback) =>
      pglite.transaction((tx) => {
        const forDrizzle: Transaction = {
          query: (sql, params, options) => statements.query(tx, true, sql, params, options),
          sql: (strings, ...params) => tx.sql(strings, ...params),
          exec: (sql, options) => tx.exec(sql, options),
          rollback: () => tx.rollback(),
          listen: (channel, onPayload) => tx.listen(channel, onPayload),
          get closed() {
            return tx.closed;
          },
        };
        return callback(forDrizzle);
      }),
  };
}

class PreparedStatements {
  private nextId = 1;
  /** Names of evicted statements, closed with the next call into the database. */
  private readonly toClose: string[] = [];
  private readonly byText = new LRUCache<string, StatementUse>({
    max: PREPARED_STATEMENTS_MAX,
    // An evicted statement is closed with the next call; a call already holding its `use` then
    // prepares it again (and closes that copy after running it, see `execute`).
    dispose: (use) => {
      if (use.prepared) this.toClose.push(use.prepared.name);
      use.prepared = undefined;
    },
  });

  constructor(private readonly pglite: PGlite) {}

  async query<T>(
    target: Pick<PGlite, 'query'>,
    inTransaction: boolean,
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    const { rowMode, parsers, ...rest } = options ?? {};
    for (const typeId of Object.keys(parsers ?? {})) {
      if (!TEXT_TYPES.has(typeId))
        throw new Error(
          `a parser for PostgreSQL type ${typeId} was asked for; only ${TEXT_TYPE_IDS.join(', ')} are kept as text`,
        );
    }
    const use = this.byText.get(sql) ?? { uses: 0 };
    if (use.uses === 0) this.byText.set(sql, use);
    use.uses += 1;
    // Other options (blob, serializers, paramTypes) and first runs: PGlite's own path.
    const hasOtherOptions = Object.keys(rest).length > 0;
    if (hasOtherOptions || use.uses < PREPARE_AFTER_USES) {
      return target.query<T>(
        sql,
        params,
        hasOtherOptions ? { ...rest, rowMode } : rowMode ? ROW_MODE_OPTIONS[rowMode] : undefined,
      );
    }
    const run = () => this.pglite._runExclusiveQuery(() => this.execute<T>(use, sql, params, rowMode ?? 'object'));
    if (inTransaction) return run();
    const result = await this.pglite._runExclusiveTransaction(run);
    await this.pglite.syncToFs();
    return result;
  }

  /** Runs under PGlite's query lock. */
  private async execute<T>(
    use: StatementUse,
    sql: string,
    params: unknown[],
    rowMode: 'array' | 'object',
  ): Promise<Results<T>> {
    try {
      use.prepared ??= await this.prepare(sql);
      const { name, paramTypeIds, fields } = use.prepared;
      const values = params.map((value, index) => this.serialize(value, paramTypeIds[index]!));
      const exchange = Buffer.concat([
        ...this.closeMessages(),
        bindMessage(name, values),
        EXECUTE_MESSAGE,
        SYNC_MESSAGE,
      ]);
      // Evicted while this call waited for the lock: this copy runs once and is closed by the next call.
      if (this.byText.peek(sql) !== use) {
        use.prepared = undefined;
        this.toClose.push(name);
      }
      const messages = await this.pglite.execProtocolStream(exchange, { syncToFs: false });
      return toResults<T>(messages, fields, rowMode, this.pglite.parsers);
    } catch (error) {
      if (use.prepared && isSqlState(error, SQLSTATE_FEATURE_NOT_SUPPORTED)) this.byText.delete(sql);
      throw Object.assign(error as object, { query: sql, params });
    }
  }

  private async prepare(sql: string): Promise<PreparedStatement> {
    const name = `meridian_${this.nextId++}`;
    const messages = await this.pglite.execProtocolStream(
      Buffer.concat([...this.closeMessages(), parseMessage(name, sql), describeStatementMessage(name), SYNC_MESSAGE]),
      { syncToFs: false },
    );
    const paramTypeIds = messages.flatMap((message) =>
      'dataTypeIDs' in message && message.name === 'parameterDescription' ? (message.dataTypeIDs as number[]) : [],
    );
    const description = messages.find((message) => message.name === 'rowDescription') as
      { fields: { name: string; dataTypeID: number }[] } | undefined;
    return {
      name,
      paramTypeIds,
      fields: (description?.fields ?? []).map(({ name: field, dataTypeID }) => ({ name: field, dataTypeID })),
    };
  }

  private closeMessages(): Buffer[] {
    return this.toClose.splice(0).map((name) => closeStatementMessage(name));
  }

  /** As PGlite serializes a parameter of `typeId` (its `serializers`, else `toString`). */
  private serialize(value: unknown, typeId: number): string | null {
    if (value === null || value === undefined) return null;
    const serializer = this.pglite.serializers[typeId];
    return serializer ? serializer(value) : String(value);
  }
}

/** Rows, fields and affected rows from a Bind + Execute + Sync exchange, as PGlite's `parseResults`. */
function toResults<T>(
  messages: { name: string }[],
  fields: PreparedStatement['fields'],
  rowMode: 'array' | 'object',
  parsers: PGlite['parsers'],
): Results<T> {
  const rows: unknown[] = [];
  let affectedRows = 0;
  for (const message of messages) {
    if (message.name === 'dataRow') {
      const values = (message as unknown as { fields: (string | null)[] }).fields.map((value, index) =>
        types.parseType(value, fields[index]!.dataTypeID, parsers),
      );
      rows.push(
        rowMode === 'array' ? values : Object.fromEntries(values.map((value, index) => [fields[index]!.name, value])),
      );
    } else if (message.name === 'commandComplete') {
      const words = (message as unknown as { text: string }).text.split(' ');
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(words[0]!))
        affectedRows += Number.parseInt(words.at(-1)!, 10);
    }
  }
  return { rows: rows as T[], fields, affectedRows };
}

// ------------------------------------------------------------------ frontend messages
// PostgreSQL's extended query protocol (PostgreSQL 17 docs, "Message Formats"): a type byte, the
// length of the rest including itself (int32), the body.

function frame(type: string, parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
};
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};

/** Parse: statement name, text, no parameter types given (PostgreSQL infers them). */
const parseMessage = (name: string, sql: string) => frame('P', [cstring(name), cstring(sql), int16(0)]);
/** Describe a prepared statement: answers ParameterDescription and RowDescription (or NoData). */
const describeStatementMessage = (name: string) => frame('D', [Buffer.from('S'), cstring(name)]);
/** Close a prepared statement. */
const closeStatementMessage = (name: string) => frame('C', [Buffer.from('S'), cstring(name)]);
/**
 * Bind the unnamed portal to `name` with text parameters (null: SQL NULL) and text results: portal
 * name, statement name, no parameter format codes, the count and each value (length, bytes; -1 for
 * NULL), no result format codes. Written into one buffer sized first: this runs for every prepared
 * query, and a batch's array parameters can be kilobytes.
 */
export function bindMessage(name: string, values: (string | null)[]): Buffer {
  const nameBytes = Buffer.byteLength(name, 'utf8');
  let length = 4 + 1 + nameBytes + 1 + 2 + 2 + 2;
  for (const value of values) length += 4 + (value === null ? 0 : Buffer.byteLength(value, 'utf8'));
  const message = Buffer.allocUnsafe(1 + length);
  let at = message.write('B', 0, 'latin1');
  at = message.writeInt32BE(length, at);
  message[at++] = 0; // the unnamed portal
  at += message.write(name, at, 'utf8');
  message[at++] = 0;
  at = message.writeInt16BE(0, at);
  at = message.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) {
      at = message.writeInt32BE(-1, at);
    } else {
      const bytes = message.write(value, at + 4, 'utf8');
      message.writeInt32BE(bytes, at);
      at += 4 + bytes;
    }
  }
  message.writeInt16BE(0, at);
  return message;
}
/** Execute the unnamed portal, all rows. */
const EXECUTE_MESSAGE = frame('E', [cstring(''), int32(0)]);
const SYNC_MESSAGE = frame('S', []);
