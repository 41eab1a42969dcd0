/**
 * The server side of `npm run bench:liquidation`, run by `liquidation.ts` in
 * its own Node process so that the resident memory measured is the engine's, not the data
 * generator's. It opens the database the parent loaded (argv[2]: a JSON `DatabaseTarget`, PGlite
 * data directory or PostgreSQL URL), wires the loans service to the real `NoticeService` (messages
 * written in the engine's transaction, announced at commit, then delivered by this process: a
 * no-op mailer stands in for the mail outbox, every user reads en-US), runs ONE price event at the
 * drop price (`service.runPriceEvent`: protection rules, liquidation, margin-call alerts, one
 * transaction), waits until every announced message is delivered, and prints one JSON line:
 *
 *   { "report": PriceEventReport, "eventMs": number, "notifyMs": number (of it, writing messages),
 *     "eventCpuMs": number (this process's CPU time during the event), "backendCpuMs": number | null
 *     (the PostgreSQL backend's CPU time in the event's transaction, from /proc on this machine),
 *     "deliveryMs": number, "messages": number,
 *     "baselineRssMb": number, "eventPeakRssMb": number (up to the commit), "peakRssMb": number
 *     (up to the last delivery), "peakHeapMb": number }
 *
 * `baselineRssMb` is the RSS after opening the database and before the event; the peak is sampled
 * every 10 ms from then until the deliveries are done.
 *
 *   tsx bench/liquidation-server.ts '{"kind":"postgres","url":"postgres://…"}' 39700
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { createLoansService } from '../apps/server/src/modules/loans/loans.service.ts';
import { NoticeService } from '../apps/server/src/modules/notices/notices.service.ts';
import { systemClock } from '../apps/server/src/platform/clock/clock.ts';
import { type DatabaseTarget, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { queryRows } from '../apps/server/src/platform/db/rows.ts';
import { PriceDecimal } from '../apps/server/src/platform/prices/types.ts';
import { SseHub } from '../apps/server/src/platform/realtime/sse-hub.ts';

const target = JSON.parse(process.argv[2] ?? '') as DatabaseTarget;

/**
 * With LIQUIDATION_PROFILE=1 (PostgreSQL only): every statement's time, summed by the statement's
 * first 70 characters, printed to stderr after the event (count, total ms, mean ms), largest first.
 */
const statementTimes = new Map<string, { count: number; totalMs: number }>();
if (process.env.LIQUIDATION_PROFILE === '1') {
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const config = args[0];
    const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '?');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
    const started = performance.now();
    const result = original.apply(this, args);
    const record = () => {
      const entry = statementTimes.get(key) ?? { count: 0, totalMs: 0 };
      entry.count += 1;
      entry.totalMs += performance.now() - started;
      statementTimes.set(key, entry);
    };
    if (result instanceof Promise) result.then(record, record);
    return result;
  };
}
const dropPrice = process.argv[3] ?? '39700';
const MB = 1_048_576;

/**
 * CPU time (user + system, ms) a PostgreSQL backend on this machine has used, from
 * `/proc/<pid>/stat` (clock ticks of 10 ms); null when it cannot be read (PGlite, another host).
 */
function backendCpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
/** Time spent writing messages inside the event (`notifyMany`), milliseconds. */
let notifyMs = 0;

const silent = {
  info: () => {},
  warn: () => {},
  debug: () => {},
  error: (detail: unknown, message?: string) => console.error(message, detail),
};
const database = await openDatabase(target);
const notices = new NoticeService({
  database,
  hub: new SseHub(),
  push: undefined,
  recipientsOf: async (userIds) =>
    new Map(userIds.map((id) => [id, { locale: 'en-US' as const, email: `${id}@bench.invalid` }])),
  mail: async () => {},
  log: silent as unknown as FastifyBaseLogger,
  clock: systemClock,
});
await notices.start();
const service = createLoansService({
  db: database.db,
  btcPrice: async () => ({ priceUsd: new PriceDecimal(dropPrice), observedAt: new Date(), sources: ['bench'] }),
  assertNotFrozen: async () => {},
  notifyMany: async (inputs, tx) => {
    const started = performance.now();
    try {
      return await notices.notifyMany(inputs, tx);
    } finally {
      notifyMs += performance.now() - started;
    }
  },
  now: () => systemClock.now(),
  log: silent,
});

globalThis.gc?.();
const baseline = process.memoryUsage();
let peakRss = baseline.rss;
let peakHeap = baseline.heapUsed;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
}, 10);

const [before] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM notice_messages`);
const started = performance.now();
const prepared = await service.engine.preparePrice();
const cpuBefore = process.cpuUsage();
let backendCpuMs: number | null = null;
const report = await database.db.transaction(async (tx) => {
  const [backend] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
  const backendBefore = backendCpuMsOf(backend?.pid);
  const result = await service.runPriceEvent(tx, prepared, new Date());
  const backendAfter = backendCpuMsOf(backend?.pid);
  if (backendBefore !== null && backendAfter !== null) backendCpuMs = backendAfter - backendBefore;
  return result;
});
const eventMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const eventPeakRss = Math.max(peakRss, process.memoryUsage().rss);
if (statementTimes.size > 0) {
  const lines = [...statementTimes].sort((a, b) => b[1].totalMs - a[1].totalMs);
  for (const [key, { count, totalMs }] of lines)
    console.error(
      `${totalMs.toFixed(0).padStart(7)} ms ${String(count).padStart(6)} × ${(totalMs / count).toFixed(2).padStart(8)} ms  ${key}`,
    );
  statementTimes.clear();
}
// The announcements arrive after commit; every LOAN message is mailed, so each is claimed
// (`delivered_at` set) when its delivery starts: wait for none to be left, then for the last ones to end.
const [after] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM notice_messages`);
const messages = (after?.n ?? 0) - (before?.n ?? 0);
const [undelivered] = await queryRows<{ n: number }>(
  database.db,
  sql`SELECT count(*)::int AS n FROM notice_messages WHERE delivered_at IS NULL`,
);
for (let waited = 0; waited < 120_000; waited += 50) {
  const [left] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM notice_messages WHERE delivered_at IS NULL`,
  );
  if ((left?.n ?? 0) === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await notices.deliveriesIdle();
const deliveryMs = performance.now() - started - eventMs;
clearInterval(sampler);
await notices.stop();
await database.close();
console.log(
  JSON.stringify({
    report,
    eventMs: Math.round(eventMs),
    eventCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    backendCpuMs,
    notifyMs: Math.round(notifyMs),
    deliveryMs: Math.round(deliveryMs),
    messages,
    undeliveredAtCommit: undelivered?.n ?? 0,
    baselineRssMb: Math.round(baseline.rss / MB),
    eventPeakRssMb: Math.round(eventPeakRss / MB),
    peakRssMb: Math.round(peakRss / MB),
    peakHeapMb: Math.round(peakHeap / MB),
  }),
);
