/** How the rating changes of one instance are grouped into batches. */
export interface BatchQueueOptions {
  /** Most items in one batch; 256 by default (the arrays of its two statements grow with it). */
  readonly maxBatchSize?: number;
  /**
   * Batches under way at once; 2 by default (markings: one writes while the next forms). Rating changes take 16:
   * their writes run one at a time, and every batch decided while one runs is written together by the next
   * (CombinedWrites), so the batches under way are mostly those waiting for it; with 4, the changes that came after
   * the fourth waited in the queue and missed the next write.
   */
  readonly maxBatchesInFlight?: number;
}

/** One thing asked of the queue: `key` names what two items of one batch must never share. */
export interface QueuedItem {
  readonly key: string;
}

/**
 * Group commit for an asynchronous store: the items asked for in one turn of the event loop form a batch, handed to
 * `run`; while `maxBatchesInFlight` batches are under way, new items wait and form the next batch when one ends.
 * No batch holds two items of one key, nor an item whose key a batch under way holds: the later waits for the next
 * batch, so the items of one key are run one after the other, in the order they were asked for. `run` settles its
 * items itself; it may hand some back (`requeue`) to go first in the next batch.
 */
export class BatchQueue<Item extends QueuedItem> {
  private queue: Item[] = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatchSize: number;
  private readonly maxBatchesInFlight: number;

  constructor(
    private readonly run: (batch: readonly Item[], requeue: (items: readonly Item[]) => void) => Promise<void>,
    options: BatchQueueOptions = {},
  ) {
    this.maxBatchSize = atLeastOne(options.maxBatchSize ?? 256, 'maxBatchSize');
    this.maxBatchesInFlight = atLeastOne(options.maxBatchesInFlight ?? 2, 'maxBatchesInFlight');
  }

  add(item: Item): void {
    this.queue.push(item);
    this.schedule();
  }

  /** Items waiting for a batch (not those of batches under way). */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxBatchesInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // After the current turn: whatever else is asked for in it joins the same batch.
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.inFlight < this.maxBatchesInFlight) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.inFlight += 1;
      let requeued: readonly Item[] = [];
      void this.run(batch, (items) => (requeued = items))
        .catch(() => undefined) // run settles every item itself; a rejection here would be a bug of run, not of an item
        .finally(() => {
          this.inFlight -= 1;
          for (const item of batch) this.busy.delete(item.key);
          // Handed back items go first: they were asked for before everything still waiting.
          if (requeued.length > 0) this.queue = [...requeued, ...this.queue];
          this.schedule();
        });
    }
  };

  private take(): Item[] {
    const batch: Item[] = [];
    const rest: Item[] = [];
    const taken = new Set<string>();
    for (const item of this.queue) {
      if (batch.length < this.maxBatchSize && !this.busy.has(item.key) && !taken.has(item.key)) {
        batch.push(item);
        taken.add(item.key);
      } else {
        rest.push(item);
      }
    }
    this.queue = rest;
    for (const key of taken) this.busy.add(key);
    return batch;
  }
}

function atLeastOne(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, not ${value}`);
  return value;
}
