import { describe, expect, it } from 'vitest';
import { createWriteBatcher } from './batcher.ts';

/** A batch writer whose batches finish only when the test says so. */
function controlledWriter() {
  const batches: { items: readonly number[]; finish: () => void }[] = [];
  let active = 0;
  let activeMax = 0;
  const write = (items: readonly number[]) =>
    new Promise<(string | Error)[]>((resolve) => {
      active += 1;
      activeMax = Math.max(activeMax, active);
      batches.push({
        items,
        finish: () => {
          active -= 1;
          resolve(items.map((item) => (item < 0 ? new Error(`refused ${item}`) : `done ${item}`)));
        },
      });
    });
  return { batches, write, activeMax: () => activeMax };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createWriteBatcher', () => {
  it('writes a lone item at once, then gathers what arrives meanwhile into the next batch', async () => {
    const writer = controlledWriter();
    const submit = createWriteBatcher(writer.write, { batchSizeMax: 10, concurrentBatchesMax: 1 });
    const first = submit(1);
    await turn();
    expect(writer.batches.map((b) => b.items)).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => submit(item));
    await turn();
    expect(writer.batches).toHaveLength(1); // waits for the writing slot
    writer.batches[0]!.finish();
    expect(await first).toBe('done 1');
    await turn();
    expect(writer.batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    writer.batches[1]!.finish();
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('bounds the batch size and the batches in flight, and fails only the item whose result is an error', async () => {
    const writer = controlledWriter();
    const submit = createWriteBatcher(writer.write, { batchSizeMax: 3, concurrentBatchesMax: 2 });
    const results = [1, 2, 3, 4, -5, 6, 7, 8].map((item) => submit(item).catch((error: Error) => error.message));
    for (let round = 0; round < 10; round += 1) {
      await turn();
      for (const batch of writer.batches) batch.finish();
    }
    expect(await Promise.all(results)).toEqual([
      'done 1',
      'done 2',
      'done 3',
      'done 4',
      'refused -5',
      'done 6',
      'done 7',
      'done 8',
    ]);
    expect(writer.batches.map((b) => b.items.length).every((n) => n <= 3)).toBe(true);
    expect(writer.activeMax()).toBe(2);
  });

  it('rejects every item of a batch whose writer failed, and keeps writing later batches', async () => {
    let calls = 0;
    const submit = createWriteBatcher(
      async (items: readonly number[]) => {
        calls += 1;
        if (calls === 1) throw new Error('connection lost');
        return items.map((item) => item * 2);
      },
      { batchSizeMax: 10, concurrentBatchesMax: 1 },
    );
    const failed = await Promise.allSettled([submit(1), submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await submit(3)).toBe(6);
  });
});
