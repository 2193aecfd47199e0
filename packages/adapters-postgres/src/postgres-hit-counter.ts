import type { Pool } from 'pg';

interface PendingHits {
  readonly key: string;
  readonly windowStartMs: number;
  readonly windowMs: number;
  /** One per hit, in the order they came. */
  readonly waiters: Array<{ resolve: (hits: number) => void; reject: (error: Error) => void }>;
}

/**
 * The rate limits' shared count (adapters-http's SharedHitCounter) on the UNLOGGED table `rate_limit_hits`. Every hit
 * of one turn of the event loop goes into ONE statement: unnest the batch (one row per key and window, summed), INSERT
 * ... ON CONFLICT DO UPDATE SET hits = hits + excluded.hits, RETURNING the totals; each hit of a batch then learns the
 * count as it stood right after it (total minus the hits of the batch that came later). The rows are locked in key
 * order, so two instances' batches never deadlock. When a batch opens a newer window, the rows of windows that ended
 * by its start are deleted (in the background: a failure there fails no request).
 */
export class PostgresHitCounter {
  private pending = new Map<string, PendingHits>();
  private flushScheduled = false;
  private prunedUpToMs = Number.NEGATIVE_INFINITY;
  private pruning: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly onPruneFailure: (error: Error) => void = () => {},
  ) {}

  hit(key: string, windowStartMs: number, windowMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const id = `${windowStartMs}/${key}`; // one row per key and window start, whatever the length
      let entry = this.pending.get(id);
      if (entry === undefined) this.pending.set(id, (entry = { key, windowStartMs, windowMs, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After the I/O callbacks of this turn: every request parsed in it has had its hit queued by then.
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Resolves once the deletions of ended windows started so far are done (tests wait for it). */
  async settled(): Promise<void> {
    await this.pruning;
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.values()].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStartMs - b.windowStartMs,
    );
    this.pending = new Map();
    this.flushScheduled = false;
    let totals: Map<string, number>;
    try {
      const { rows } = await this.pool.query<{ key: string; window_start: string; hits: number }>(
        `INSERT INTO rate_limit_hits AS counted (key, window_start, window_end, hits)
         SELECT key, window_start, window_end, hits
           FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::integer[]) AS given (key, window_start, window_end, hits)
          ORDER BY key, window_start
         ON CONFLICT (key, window_start) DO UPDATE SET hits = counted.hits + excluded.hits
         RETURNING key, window_start, hits`,
        [
          batch.map((entry) => entry.key),
          batch.map((entry) => entry.windowStartMs),
          batch.map((entry) => entry.windowStartMs + entry.windowMs),
          batch.map((entry) => entry.waiters.length),
        ],
      );
      totals = new Map(rows.map((row) => [`${row.window_start}/${row.key}`, row.hits]));
    } catch (error) {
      for (const entry of batch) for (const waiter of entry.waiters) waiter.reject(error as Error);
      return;
    }
    for (const entry of batch) {
      const total = totals.get(`${entry.windowStartMs}/${entry.key}`);
      entry.waiters.forEach((waiter, index) =>
        total === undefined
          ? waiter.reject(new Error('the rate limit count returned no row for a key'))
          : waiter.resolve(total - (entry.waiters.length - 1 - index)),
      );
    }
    this.pruneBefore(Math.max(...batch.map((entry) => entry.windowStartMs)));
  }

  private pruneBefore(windowStartMs: number): void {
    if (windowStartMs <= this.prunedUpToMs) return;
    this.prunedUpToMs = windowStartMs;
    this.pruning = this.pool
      .query('DELETE FROM rate_limit_hits WHERE window_end <= $1', [windowStartMs])
      .catch((error: Error) => this.onPruneFailure(error));
  }
}
