import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The real HTTP server (`src/main.ts`) as a child process of the soak: started with tsx on a free
 * port, waited for until `/readyz` answers, and stopped either by SIGKILL (the crash under test) or
 * by SIGTERM (a clean stop, which must exit 0).
 *
 * The child is `node --import tsx src/main.ts`, not the `tsx` command line: that one runs the script
 * in a grandchild and relays only catchable signals, so a SIGKILL would kill the relay and leave
 * the server running.
 */
export const SERVER_DIR = join(import.meta.dirname, '../..');

/**
 * Node's arguments that start the server, run with `SERVER_DIR` as its working directory: the
 * bundle at `bundlePath` when one is given (the API tests build one per run in
 * `test/global-setup.ts`: a start then costs about half the CPU of transpiling the sources), else
 * the sources through tsx's loader. `MERIDIAN_SERVER_BUNDLE` names the bundle for a script.
 */
export function serverArgs(bundlePath: string | undefined = process.env.MERIDIAN_SERVER_BUNDLE): string[] {
  return bundlePath ? ['--enable-source-maps', bundlePath] : ['--import', 'tsx', 'src/main.ts'];
}

/** Longest wait for `/readyz` after a spawn (a busy 2-core machine starts tsx + PGlite in ≈ 5–20 s). */
const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 100;
/** A clean stop finishes in-flight requests within 10 s (main.ts `closeWithGrace`); this is the bound after which it is killed. */
const STOP_TIMEOUT_MS = 20_000;
/** How much of the child's output is kept to explain a failed start. */
const OUTPUT_TAIL_CHARS_MAX = 8_000;

/** Variables the parent environment may carry that would make the child differ from the set-up. */
const CONFIG_VARIABLES = [
  'DATABASE_URL',
  'DATA_DIR',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'SESSION_SECRET',
  'CUSTODY_WEBHOOK_SECRET',
  'WALLET_XPUB_BITCOIN',
  'WALLET_XPUB_EVM',
  'WALLET_XPUB_TRON',
  'WITHDRAW_WHITELIST_MODE',
  'WEB_DIST_DIR',
  'NODE_ENV',
  'LOG_LEVEL',
  'JOBS_ENABLED',
  'ALTCHA_MAX_COUNTER',
  'SEED_DEMO',
  // The soak dates its custody deliveries and set-up rows by the machine's clock, so its server
  // runs on it too, whatever date a test run sets (scripts/date-matrix.mjs).
  'TEST_CLOCK_AT',
] as const;

export interface ServerTarget {
  /** Where the server keeps its generated secrets (session, custody webhook, demo xpubs) and, for PGlite, its database. */
  dataDir: string;
  /** A PostgreSQL database, or undefined for the embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
}

/** The environment of every start: the same data every time, the dev mailbox on, no scheduler. */
export function serverEnvironment(target: ServerTarget, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return {
    ...env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: target.dataDir,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    LOG_LEVEL: 'warn',
    // The soak moves money through the wallet routes only; price sampling would add load, not coverage.
    JOBS_ENABLED: 'false',
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** One running server process. */
export class ServerProcess {
  private outputTail = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.outputTail = (this.outputTail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS_MAX);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the server printed (for a failure message). */
  output(): string {
    return this.outputTail;
  }

  /** Spawn the server on a free port and resolve once `/readyz` answers 200. */
  static async start(target: ServerTarget): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, serverArgs(), {
      cwd: SERVER_DIR,
      env: serverEnvironment(target, port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, `http://127.0.0.1:${port}`);
    liveServers.add(server);
    void server.exited.then(() => liveServers.delete(server));
    await server.waitReady();
    return server;
  }

  private async waitReady(): Promise<void> {
    const deadlineMs = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadlineMs) {
      if (!this.isRunning) throw new Error(`the server exited before it was ready:\n${this.outputTail}`);
      try {
        const response = await fetch(`${this.baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
    this.child.kill('SIGKILL');
    throw new Error(`the server was not ready within ${READY_TIMEOUT_MS} ms:\n${this.outputTail}`);
  }

  /** The crash: SIGKILL (no handler runs, nothing is flushed or closed), then wait for the exit. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** A clean stop (SIGTERM); resolves the exit code, after a SIGKILL if it takes too long. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const { code } = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Servers not yet exited, killed if the soak itself ends early (error, Ctrl-C, a test's timeout). */
const liveServers = new Set<ServerProcess>();

export function killLiveServers(): void {
  for (const server of liveServers) {
    if (server.pid !== undefined && server.isRunning) process.kill(server.pid, 'SIGKILL');
  }
}
