/**
 * `npm run db:backup -- --out <file> [--data-dir <dir>]`: dump the embedded database (PGlite) of
 * DATA_DIR (or --data-dir) to <file>, a gzipped tar of its data directory. Stop the server first
 * (it holds the data directory's lock). PostgreSQL: use pg_dump (docs/operations.md "Backups").
 * Exit code 0 on success, 2 on a usage or database error.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { backupEmbeddedDatabase } from '../src/platform/db/backup.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, 'data-dir': { type: 'string' } } });

/** Where the caller ran `npm run` (npm runs workspace scripts in the workspace's folder). */
const callerDir = process.env.INIT_CWD ?? process.cwd();

async function main(): Promise<number> {
  if (!values.out) {
    console.error('usage: npm run db:backup -- --out <file> [--data-dir <dir>]');
    return 2;
  }
  const config = loadConfig();
  if (!values['data-dir'] && config.database.kind !== 'pglite') {
    console.error('DATABASE_URL names PostgreSQL: back it up with pg_dump (docs/operations.md "Backups").');
    return 2;
  }
  // DATA_DIR is read like the server reads it (relative to apps/server, where npm runs this); --data-dir from the caller's folder.
  const dataDir = values['data-dir'] ? resolve(callerDir, values['data-dir']) : resolve(config.dataDir);
  try {
    const result = await backupEmbeddedDatabase(dataDir, resolve(callerDir, values.out));
    console.log(`backed up ${dataDir} to ${result.outFile} (${result.sizeBytes} bytes)`);
    console.log(
      `also keep ${dataDir}/secrets (and uploads/ when uploads are stored on disk): they are not in the dump`,
    );
    return 0;
  } catch (error) {
    console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

process.exitCode = await main();
