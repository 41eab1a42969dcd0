import { describe, expect, it } from 'vitest';
import { createKeyedBatcher } from './cards.auth-queue.ts';

/** A batch runner whose calls the test ends by hand, recording what each call got. */
function manualRunner() {
  const calls: { key: string; items: number[]; finish: (results: (string | Error)[] | Error) => void }[] = [];
  const runBatch = (key: string, items: number[]) =>
    new Promise<(string | Error)[]>((resolve, reject) => {
      calls.push({ key, items, finish: (results) => (results instanceof Error ? reject(results) : resolve(results)) });
    });
  return { calls, runBatch };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createKeyedBatcher (the per-card queue)', () => {
  it('starts a lone item at once, then sends what waited in arrival order, at most batchMax a call', async () => {
    const { calls, runBatch } = manualRunner();
    const batcher = createKeyedBatcher(runBatch, { batchMax: 3, callsInFlightMax: 1 });
    const answers = [1, 2, 3, 4, 5, 6].map((item) => batcher.submit('card', item));
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1]]);
    calls[0]!.finish(['a1']);
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3, 4]]);
    calls[1]!.finish(['a2', 'a3', 'a4']);
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3, 4], [5, 6]]);
    calls[2]!.finish(['a5', 'a6']);
    expect(await Promise.all(answers)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(batcher.busyKeys()).toBe(0);
  });

  it('with 2 calls in flight, sends the next lone item at once and groups what arrives after', async () => {
    const { calls, runBatch } = manualRunner();
    const batcher = createKeyedBatcher(runBatch, { batchMax: 10, callsInFlightMax: 2 });
    const answers = [1, 2, 3, 4, 5].map((item) => batcher.submit('card', item));
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2]]);
    calls[1]!.finish(['a2']);
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2], [3, 4, 5]]);
    const later = batcher.submit('card', 6);
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2], [3, 4, 5]]);
    calls[0]!.finish(['a1']);
    await settle();
    expect(calls[3]!.items).toEqual([6]);
    calls[2]!.finish(['a3', 'a4', 'a5']);
    calls[3]!.finish(['a6']);
    expect(await Promise.all([...answers, later])).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(batcher.busyKeys()).toBe(0);
  });

  it('keeps keys apart: one call in flight per key, keys in parallel', async () => {
    const { calls, runBatch } = manualRunner();
    const batcher = createKeyedBatcher(runBatch, { batchMax: 10, callsInFlightMax: 1 });
    const answers = [batcher.submit('a', 1), batcher.submit('b', 2), batcher.submit('a', 3)];
    await settle();
    expect(calls.map((call) => [call.key, call.items])).toEqual([
      ['a', [1]],
      ['b', [2]],
    ]);
    expect(batcher.busyKeys()).toBe(2);
    calls[1]!.finish(['b2']);
    calls[0]!.finish(['a1']);
    await settle();
    expect(calls[2]).toMatchObject({ key: 'a', items: [3] });
    calls[2]!.finish(['a3']);
    expect(await Promise.all(answers)).toEqual(['a1', 'b2', 'a3']);
  });

  it("fails only the item answered with an Error; a thrown call fails its batch, and the key's queue goes on", async () => {
    const { calls, runBatch } = manualRunner();
    const batcher = createKeyedBatcher(runBatch, { batchMax: 10, callsInFlightMax: 1 });
    const first = batcher.submit('card', 1);
    const grouped = [2, 3, 4].map((item) => batcher.submit('card', item).catch((error: Error) => error.message));
    await settle();
    calls[0]!.finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    const later = batcher.submit('card', 5);
    calls[1]!.finish(['a2', new Error('item 3 failed'), 'a4']);
    expect(await Promise.all(grouped)).toEqual(['a2', 'item 3 failed', 'a4']);
    await settle();
    calls[2]!.finish(['a5']);
    expect(await later).toBe('a5');
  });
});
