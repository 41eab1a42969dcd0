import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Raised when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holderPid: number,
  ) {
    super(
      `The data directory is in use by process ${holderPid} (lock file ${lockPath}). Stop that process or choose another DATA_DIR.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Whether process `pid` is running. `process.kill(pid, 0)` answers ESRCH for no such process and
 * EPERM for someone else's (alive). A zombie — killed (`kill -9`) but not yet reaped by its
 * parent — still answers to the signal; on Linux its state in `/proc/<pid>/stat` is Z (or X), and
 * it holds no file any more, so it counts as dead.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S …"; comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc (macOS): the signal's answer stands
  }
}

/** How `lockDataDir` waits for a holder that is still exiting. */
export interface LockOptions {
  /** How long to wait for a live holder to go away before refusing; default 5000 ms. */
  waitMs?: number;
  /** Time between two looks at the holder; default 100 ms. */
  pollMs?: number;
}

/** Default `LockOptions.waitMs`: a process killed with SIGKILL is gone well within it. */
export const LOCK_WAIT_MS_DEFAULT = 5000;

/**
 * Take an exclusive lock on a data directory so that a second process cannot open the same
 * embedded database (docs/architecture.md "Database"). The lock is a file holding the owner's pid, created with
 * O_EXCL. A lock whose pid is not a running process (ESRCH, or a zombie after `kill -9`) is taken
 * over; a live holder is waited for up to `waitMs` (a server restarted a moment after `kill -9` on
 * the old one), and still refused after that.
 *
 * @returns a function that releases the lock (idempotent).
 * @throws DataDirLockedError when a live process still holds the lock after `waitMs`.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<() => void> {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS_DEFAULT;
  const pollMs = options.pollMs ?? 100;
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'meridian.lock');
  // A wait is a duration, not calendar time: the monotonic clock.
  const deadlineMs = performance.now() + waitMs;
  for (;;) {
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
    }
    let holderPid: number;
    try {
      holderPid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile: try again
      throw error;
    }
    if (Number.isInteger(holderPid) && holderPid > 0 && holderPid !== process.pid && isProcessAlive(holderPid)) {
      if (performance.now() >= deadlineMs) throw new DataDirLockedError(lockPath, holderPid);
      await sleep(pollMs);
      continue;
    }
    // No such process (or our own pid from before a restart in a container, or garbage): stale.
    rmSync(lockPath, { force: true });
  }
}
