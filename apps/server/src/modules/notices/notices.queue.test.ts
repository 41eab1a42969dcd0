import { systemClock } from '../../platform/clock/clock.ts';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.ts';
import { SseHub } from '../../platform/realtime/sse-hub.ts';
import { DELIVERY_CONCURRENCY_MAX, NoticeService } from './notices.service.ts';

/**
 * The delivery queue: a burst of announcements is delivered at most
 * `DELIVERY_CONCURRENCY_MAX` at a time, all of them, and `deliveriesIdle` waits for the last.
 * No database: the claim is a stub answering the message row, the mailer is the test's.
 */
describe('NoticeService delivery queue', () => {
  it('delivers a burst of 40 announcements at most 4 at a time, all of them, and then is idle', async () => {
    let announce: (payload: string) => void = () => {};
    const claimed = (id: string) => ({
      id,
      userId: 'u',
      category: 'LOAN',
      title: `t${id}`,
      body: 'b',
      link: null,
      template: null,
      readAt: null,
      deliveredAt: new Date(),
      createdAt: new Date(),
    });
    const db = {
      update: () => ({ set: () => ({ where: () => ({ returning: async () => [claimed('m')] }) }) }),
    };
    const database = {
      db,
      listen: async (_channel: string, onPayload: (payload: string) => void) => {
        announce = onPayload;
        return async () => {};
      },
    } as unknown as Database;
    let running = 0;
    let most = 0;
    const mailed: string[] = [];
    const service = new NoticeService({
      database,
      clock: systemClock,
      hub: new SseHub(),
      push: undefined,
      recipientsOf: async (ids) => new Map(ids.map((id) => [id, { locale: 'en-US' as const, email: 'u@example.com' }])),
      mail: async (_to, subject) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        mailed.push(subject);
        running -= 1;
      },
      log: { error: () => {}, warn: () => {}, debug: () => {} } as unknown as FastifyBaseLogger,
    });
    await service.start();
    for (let index = 0; index < 40; index += 1) {
      announce(`u:${index}:LOAN:0`);
    }
    expect(service.deliveriesPending()).toBe(40);
    await service.deliveriesIdle();
    expect(service.deliveriesPending()).toBe(0);
    expect(most).toBe(DELIVERY_CONCURRENCY_MAX);
    expect(mailed).toHaveLength(40);
    await service.stop();
  });
});
