import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { serverArgs } from '../scripts/soak/server-process.ts';
import { testDatabaseKind } from './helpers.ts';

/**
 * The server process as an operator runs it: it refuses bad configuration naming the variable,
 * locks its embedded data directory against a second process, and on SIGTERM closes cleanly,
 * releasing the lock. Runs once (PGlite project): it does not depend on the test database.
 */
const serverDir = new URL('..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  let output = '';
  // Node itself on the run's bundle, not the tsx command: the command relays SIGTERM to its child
  // and, when the child does not acknowledge within 30 ms (a loaded machine), kills it (exit 143).
  const child = spawn(process.execPath, serverArgs(inject('serverBundle')), {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function waitReady(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server not ready');
}

describe.skipIf(testDatabaseKind !== 'pglite')('server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with an invalid variable and names it', async () => {
    const server = start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await server.exit).toBe(78);
    expect(server.output()).toContain('PORT');
  });

  it('locks the data directory, then shuts down cleanly on SIGTERM and releases the lock', async () => {
    const port = await freePort();
    const first = start({ PORT: String(port), DATA_DIR: dataDir });
    // A first start makes the database (initdb, every migration, the seed): 31.6 s measured on a
    // loaded machine (docs/testing.md), past 45 s while the e2e ran beside the API tests.
    await waitReady(port, 120_000);
    expect(existsSync(join(dataDir, 'meridian.lock'))).toBe(true);
    expect(existsSync(join(dataDir, 'secrets', 'session-secret'))).toBe(true);

    const second = start({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exit).toBe(1);
    expect(second.output()).toContain('in use by process');

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(existsSync(join(dataDir, 'meridian.lock'))).toBe(false);
  }, 180_000);
});
