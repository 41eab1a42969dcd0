/**
 * A mail outage never fails sign-in or a code request, never leaves a session
 * behind, never starts a code's resend cooldown, and the queued mail is delivered once SMTP is back.
 * SMTP_URL points at a loopback port where nothing listens; later a minimal SMTP server is started
 * on that port.
 */
import { createServer, type Server } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerAndLogin,
  solveHumanCheck,
  mutationHeaders,
  randomTestIp,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { outboxMessages, sessions } from './identity.tables.ts';

/** A free loopback port with nothing listening on it (yet). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A minimal SMTP server (RFC 5321 happy path) that records each message's recipients and data. */
function startSmtpServer(port: number, received: { to: string[]; data: string }[]): Promise<Server> {
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { to: [] as string[], data: '' };
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { to: [], data: '' };
            socket.write('250 queued\r\n');
          } else current.data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

let t: TestApp;
let port: number;
let alice: TestSession;

beforeAll(async () => {
  port = await closedPort();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  alice = await registerAndLogin(t.app);
});
afterAll(async () => t.close());

const sessionCount = async (userId: string) =>
  (await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;

describe('with the SMTP server unreachable', () => {
  it('a correct sign-in from a new device answers 200 and opens exactly one session; its mail waits in the outbox', async () => {
    const before = await sessionCount(alice.userId);
    const remoteAddress = randomTestIp();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders(),
      remoteAddress,
      payload: { email: alice.email, password: alice.password, token: await solveHumanCheck(t.app, remoteAddress) },
    });
    expect(response.json()).toMatchObject({ statusCode: 200, content: { accountId: alice.userId } });
    expect(await sessionCount(alice.userId)).toBe(before + 1);
    const [mail] = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.tag, 'newDevice'));
    expect(mail).toMatchObject({ recipient: alice.email, status: 'PENDING', attempts: 1 });
    expect(mail!.nextAttemptAt!.getTime()).toBeGreaterThan(t.app.clock.now().getTime());
  });

  it('a signed-in code request answers 200 without starting the cooldown, and the code is kept for delivery', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/captcha',
        headers: alice.headers,
        payload: { event: 'WITHDRAW' },
      });
      expect(response.json()).toMatchObject({ statusCode: 200, content: { resendAfterSeconds: 0 } });
    }
    const pending = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.tag, 'WITHDRAW'));
    expect(pending.map((row) => row.status)).toEqual(['PENDING', 'PENDING']);
  });

  it('/readyz stays about the database; the metrics say that mail is failing', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const failures = Number(/^meridian_mail_delivery_failures_total (\d+)/m.exec(metrics)?.[1]);
    const backlog = Number(/^meridian_mail_outbox_backlog (\d+)/m.exec(metrics)?.[1]);
    expect(failures).toBeGreaterThanOrEqual(3);
    expect(backlog).toBeGreaterThanOrEqual(3);
  });
});

describe('once the SMTP server is back', () => {
  it('the delivery job sends every queued mail once, and a new code starts the cooldown again', async () => {
    const received: { to: string[]; data: string }[] = [];
    const server = await startSmtpServer(port, received);
    try {
      // Skip the backoff wait: every pending mail is due now.
      await t.database.db.execute(
        sql`UPDATE outbox_messages SET next_attempt_at = ${t.app.clock.now().toISOString()}::timestamptz - interval '1 second' WHERE status = 'PENDING'`,
      );
      const outcomes = await t.app.scheduler.tick();
      expect(outcomes['identity.mail-delivery']).toBe('ran');
      const rows = await t.database.db.select().from(outboxMessages);
      expect(rows.filter((row) => row.status !== 'SENT')).toEqual([]);
      expect(received).toHaveLength(rows.length);
      expect(received.filter((mail) => mail.to.includes(alice.email))).toHaveLength(
        rows.filter((row) => row.recipient === alice.email).length,
      );
      const backlog = Number(
        /^meridian_mail_outbox_backlog (\d+)/m.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1],
      );
      expect(backlog).toBe(0);

      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/user/captcha',
        headers: alice.headers,
        payload: { event: 'FORGET_PASSWORD' },
      });
      expect(sent.json()).toMatchObject({ statusCode: 200, content: { resendAfterSeconds: 59 } });
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/user/captcha',
        headers: alice.headers,
        payload: { event: 'FORGET_PASSWORD' },
      });
      expect(again.statusCode).toBe(429);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
