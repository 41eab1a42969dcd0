/**
 * `npm run db:restore -- --in <file> --data-dir <new dir>`: load a dump made by `npm run db:backup`
 * into a new (absent or empty) data directory; a directory that holds anything is refused. Then
 * start the server with DATA_DIR=<new dir> (and copy the old directory's secrets/ there).
 * Exit code 0 on success, 1 when the directory is not empty, 2 on a usage or database error.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RestoreTargetNotEmptyError, restoreEmbeddedDatabase } from '../src/platform/db/backup.ts';

const { values } = parseArgs({ options: { in: { type: 'string' }, 'data-dir': { type: 'string' } } });

/** Where the caller ran `npm run` (npm runs workspace scripts in the workspace's folder). */
const callerDir = process.env.INIT_CWD ?? process.cwd();

async function main(): Promise<number> {
  if (!values.in || !values['data-dir']) {
    console.error('usage: npm run db:restore -- --in <file> --data-dir <new dir>');
    return 2;
  }
  const dataDir = resolve(callerDir, values['data-dir']);
  try {
    await restoreEmbeddedDatabase(resolve(callerDir, values.in), dataDir);
    console.log(`restored ${resolve(callerDir, values.in)} into ${dataDir}; start the server with DATA_DIR=${dataDir}`);
    return 0;
  } catch (error) {
    console.error(`restore failed: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof RestoreTargetNotEmptyError ? 1 : 2;
  }
}

process.exitCode = await main();
