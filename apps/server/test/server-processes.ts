import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import { expect, inject } from 'vitest';
import { serverArgs } from '../scripts/soak/server-process.ts';

/**
 * Real server processes for the tests that need more than one (the run's server bundle,
 * real HTTP): start, wait until ready, call the API, sign a user up, sign a custody webhook.
 */
const serverDir = new URL('..', import.meta.url).pathname;
export const SESSION_SECRET = `processes-${randomBytes(16).toString('hex')}`;
export const CUSTODY_SECRET = `processes-custody-${randomBytes(16).toString('hex')}`;
/** A parsed JSON answer, read field by field in the assertions (like `inject().json()`). */
export type Json = ReturnType<typeof JSON.parse>;
export const MUTATION = { 'content-type': 'application/json', [HEADER_CSRF]: CSRF_HEADER_VALUE };

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
  output: () => string;
  exit: Promise<number | null>;
}

/** Start a server process on `databaseUrl` (NODE_ENV=test, its own DATA_DIR), with `env` added. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-two-'));
  let output = '';
  const child = spawn(process.execPath, serverArgs(inject('serverBundle')), {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      CUSTODY_WEBHOOK_SECRET: CUSTODY_SECRET,
      ...env,
    },
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, dataDir, output: () => output, exit };
}

export async function waitReady(server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server ${server.url} not ready:\n${server.output()}`);
}

export async function call(
  server: ServerProcess,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: object; cookie?: string } = {},
): Promise<{ statusCode: number; content: Json; cookies: string[] }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(method === 'POST' ? MUTATION : {}), ...(options.cookie ? { cookie: options.cookie } : {}) },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  const body = (await response.json()) as { statusCode: number; content: Json };
  return { statusCode: body.statusCode, content: body.content, cookies: response.headers.getSetCookie() };
}

/** Solve the ALTCHA human check over HTTP, as the widget does (fast under NODE_ENV=test). */
export async function humanCheck(server: ServerProcess): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const challenge = (await (await fetch(`${server.url}/api/user/human-check/challenge`)).json()) as Parameters<
    typeof solveChallenge
  >[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export async function latestCode(server: ServerProcess, email: string, event: string): Promise<string> {
  const mails = (await call(server, 'GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)).content as {
    subject: string;
    tag: string | null;
  }[];
  const code = mails.find((mail) => mail.tag === event)?.subject.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no ${event} code for ${email}`);
  return code;
}

/** Register and sign in through `server`; answers the user's email and session cookie. */
export async function signUp(server: ServerProcess): Promise<{ email: string; cookie: string; userId: string }> {
  const email = `two-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'Correct-Horse-Battery-9';
  const step = await call(server, 'POST', '/api/user/register', { body: { email, token: await humanCheck(server) } });
  expect(step.statusCode).toBe(200);
  const ticket = step.content.ticket as string;
  expect(
    (await call(server, 'POST', '/api/user/captcha', { body: { event: 'EMAIL_REGISTER', email, ticket } })).statusCode,
  ).toBe(200);
  const emailCaptcha = await latestCode(server, email, 'EMAIL_REGISTER');
  const created = await call(server, 'POST', '/api/user/register', {
    body: { email, ticket, emailCaptcha, password, confirm: password },
  });
  expect(created.statusCode).toBe(200);
  const login = await call(server, 'POST', '/api/user/login', {
    body: { email, password, token: await humanCheck(server) },
  });
  expect(login.statusCode).toBe(200);
  const cookie = login.cookies.map((item) => item.split(';')[0]).join('; ');
  return { email, cookie, userId: created.content.accountId };
}

export async function custodyPost(server: ServerProcess, path: string, body: object) {
  const raw = JSON.stringify(body);
  const signature = createHmac('sha256', CUSTODY_SECRET).update(raw).digest('hex');
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-custody-signature': `sha256=${signature}` },
    body: raw,
  });
  return (await response.json()) as { statusCode: number; content: Json };
}
