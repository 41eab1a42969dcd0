import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, isProcessAlive, lockDataDir } from './lock.ts';

/** The data-directory lock after `kill -9` of its owner. */
const dirs: string[] = [];
function dataDir(holderPid?: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-lock-'));
  dirs.push(dir);
  if (holderPid !== undefined) writeFileSync(join(dir, 'meridian.lock'), String(holderPid));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('lockDataDir', () => {
  it('takes over a lock whose pid is no running process', async () => {
    const pid = deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    const dir = dataDir(pid);
    const release = await lockDataDir(dir, { waitMs: 0 });
    expect(readFileSync(join(dir, 'meridian.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'meridian.lock'))).toBe(false);
  });

  it('keeps refusing while a live process holds the lock', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      const dir = dataDir(holder.pid);
      await expect(lockDataDir(dir, { waitMs: 300, pollMs: 50 })).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(lockDataDir(dir, { waitMs: 0 })).rejects.toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('waits for a holder killed with SIGKILL instead of failing', async () => {
    const holder = spawn('sleep', ['30']);
    const dir = dataDir(holder.pid);
    setTimeout(() => holder.kill('SIGKILL'), 200);
    const release = await lockDataDir(dir, { waitMs: 5000, pollMs: 50 });
    expect(readFileSync(join(dir, 'meridian.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('counts a zombie (killed, not yet reaped by its parent) as dead', async () => {
    // `sleep 0 &` exits at once; its parent became `sleep 5` (exec) and never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5']);
    try {
      const zombiePid = await new Promise<number>((resolve) =>
        parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(() => process.kill(zombiePid, 0)).not.toThrow(); // the signal alone says "alive"
      expect(isProcessAlive(zombiePid)).toBe(false);
      const release = await lockDataDir(dataDir(zombiePid), { waitMs: 0 });
      release();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
