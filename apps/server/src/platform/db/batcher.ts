import DataLoader from 'dataloader';

/** Options of `createWriteBatcher`. */
export interface WriteBatcherOptions {
  /** Most items one batch carries (the batch function's own bound, e.g. the ledger's 64 entries). */
  batchSizeMax: number;
  /**
   * Most batches written at once. 1 on PGlite (one connection: a second batch would only queue
   * inside the driver, so it is better to let it keep growing); a few on PostgreSQL.
   */
  concurrentBatchesMax: number;
}

/**
 * Group commit for a hot write path: items submitted while earlier batches are being written wait
 * and are written together by ONE call of `writeBatch`, so N concurrent requests cost one round
 * trip (and one commit) instead of N. With nothing in flight an item is written at once (after the
 * current turn of the event loop), so a lone request waits for no timer.
 *
 * Built on DataLoader (graphql/dataloader): `writeBatch` answers one result per item, in order, an
 * `Error` instance for an item that failed alone; the submitting call rejects with that error. A
 * rejection of `writeBatch` itself rejects every item of the batch. Nothing is cached: every
 * submission is written.
 *
 * @returns `submit(item)`, resolving with the item's result once its batch is written.
 */
export function createWriteBatcher<Item, Result>(
  writeBatch: (items: readonly Item[]) => Promise<(Result | Error)[]>,
  options: WriteBatcherOptions,
): (item: Item) => Promise<Result> {
  let activeBatches = 0;
  const waitingDispatches: (() => void)[] = [];
  const release = () => {
    const next = waitingDispatches.shift();
    if (next) setImmediate(next);
    else activeBatches -= 1;
  };
  const loader = new DataLoader<Item, Result>(
    async (items) => {
      try {
        return await writeBatch(items);
      } finally {
        release();
      }
    },
    {
      cache: false,
      maxBatchSize: options.batchSizeMax,
      // The batch keeps collecting until a writing slot is free; then it is dispatched as it stands.
      batchScheduleFn: (dispatch) => {
        if (activeBatches < options.concurrentBatchesMax) {
          activeBatches += 1;
          setImmediate(dispatch);
        } else {
          waitingDispatches.push(dispatch);
        }
      },
    },
  );
  return (item) => loader.load(item);
}
