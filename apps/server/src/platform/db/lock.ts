import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holderPid: number,
  ) {
    super(`The data directory is in use by process ${holderPid} (lock file ${lockPath}). Stop that process or choose another DATA_DIR.`);
    this.name = 'DataDirLockedError';
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take an exclusive lock on a data directory so that a second process cannot open the same
 * embedded database (ARCHITECTURE §3). The lock is a file holding the owner's pid, created with
 * O_EXCL; a lock left by a dead process is taken over.
 *
 * @returns a function that releases the lock (idempotent).
 * @throws DataDirLockedError when a live process holds the lock.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'meridian.lock');
  // Two attempts: the second one follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holderPid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(holderPid) && holderPid !== process.pid && isProcessAlive(holderPid)) {
        throw new DataDirLockedError(lockPath, holderPid);
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not take the lock ${lockPath}`);
}
