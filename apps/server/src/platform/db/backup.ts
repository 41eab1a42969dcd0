import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from './client.ts';
import { lockDataDir } from './lock.ts';

/**
 * Backups of the embedded database (docs/scale.md). A backup is PGlite's own
 * data-directory dump (`PGlite.dumpDataDir('gzip')`: a gzipped tar of the PostgreSQL cluster), made
 * while holding the data directory's lock, so a running server (which holds it) is never copied
 * half-written. A restore loads the dump into a NEW data directory (`loadDataDir`) and refuses a
 * directory that already holds anything. PostgreSQL is backed up with pg_dump (docs/operations.md).
 */

/** Raised when a restore would write into a directory that is not empty. */
export class RestoreTargetNotEmptyError extends Error {
  constructor(readonly dataDir: string) {
    super(`Refusing to restore into ${dataDir}: the directory is not empty. Choose a new (or empty) directory.`);
    this.name = 'RestoreTargetNotEmptyError';
  }
}

/** What a backup wrote. */
export interface BackupResult {
  outFile: string;
  /** Size of the dump in bytes. */
  sizeBytes: number;
}

/**
 * Dump the embedded database of `dataDir` (its `pglite/` directory) to `outFile` (gzipped tar).
 * Takes the data directory's lock for the copy: stop the server first.
 * @throws DataDirLockedError when a live process holds the directory; Error when it holds no database.
 */
export async function backupEmbeddedDatabase(dataDir: string, outFile: string): Promise<BackupResult> {
  if (!existsSync(join(dataDir, 'pglite'))) throw new Error(`${dataDir} holds no embedded database (no pglite/)`);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const dump = await database.pglite!.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, bytes);
    return { outFile, sizeBytes: bytes.length };
  } finally {
    await database.close();
  }
}

/**
 * Load the dump `inFile` (from `backupEmbeddedDatabase`, or any `dumpDataDir`) into `dataDir`,
 * which must be absent or empty; the server then starts with `DATA_DIR=<dataDir>`.
 * @throws RestoreTargetNotEmptyError when `dataDir` holds anything; Error when `inFile` is missing.
 */
export async function restoreEmbeddedDatabase(inFile: string, dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new RestoreTargetNotEmptyError(dataDir);
  const bytes = readFileSync(inFile);
  mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir: join(dataDir, 'pglite'), loadDataDir: new Blob([bytes]) });
    await client.close();
  } finally {
    release();
  }
}
