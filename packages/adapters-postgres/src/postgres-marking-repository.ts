import type { MealId, UserId } from '@canteen-meals/domain';
import type { MarkingRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { BatchQueue, type BatchQueueOptions } from './batch-queue.js';
import { hotStatements, type HotStatementForm } from './hot-statements.js';
import type { PostgresStorageHealth } from './storage-health.js';
import { retryableStates, sqlStateOf, type RetryEvent } from './transaction.js';

export interface MarkingBatchOptions extends BatchQueueOptions {
  /**
   * How many times a batch PostgreSQL aborted (a deadlock with another instance's batch) is run again; 5 by default.
   */
  readonly maxRetries?: number;
}

export interface PostgresMarkingOptions extends MarkingBatchOptions {
  readonly health?: PostgresStorageHealth | undefined;
  /** Told of every batch run again after a deadlock or serialization failure (like the transactions' retries). */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Which form of the batch statement to send (see hot-statements.ts); `functions` by default. */
  readonly statements?: HotStatementForm | undefined;
}

interface PendingMarking {
  readonly key: string;
  readonly userId: UserId;
  readonly mealId: MealId;
  readonly marked: boolean;
  readonly resolve: (found: boolean) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Markings in batches, like rating changes: the markings asked for in one turn of the event loop are one statement
 * and one commit (hot-statements.ts, `markBatch`: it sets or clears each marking of an existing, not withdrawn meal
 * and answers the batch positions, 1-based, whose meal was found). A batch never holds two markings of one (user,
 * meal), nor one whose (user, meal) a batch under way
 * holds (BatchQueue), so one user's markings of one meal apply in the order they were asked for, each answered as if
 * it ran alone: a marking changes only its own row, so the other items of its batch cannot change its outcome.
 */
export class PostgresMarkingRepository implements MarkingRepository {
  private readonly queue: BatchQueue<PendingMarking>;
  private readonly maxRetries: number;
  private retried = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresMarkingOptions = {},
  ) {
    this.maxRetries = options.maxRetries ?? 5;
    this.queue = new BatchQueue((batch) => this.runBatch(batch), options);
  }

  /** Batches run again after PostgreSQL aborted them (a deadlock with another instance's batch). */
  get retryCount(): number {
    return this.retried;
  }

  setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean> {
    return new Promise((resolve, reject) => {
      // JSON: a user id may hold any character, so no separator could tell the two parts apart.
      this.queue.add({ key: JSON.stringify([mealId, userId]), userId, mealId, marked, resolve, reject });
    });
  }

  private async runBatch(batch: readonly PendingMarking[]): Promise<void> {
    const values = [
      batch.map((item) => item.userId),
      batch.map((item) => item.mealId),
      batch.map((item) => item.marked),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await this.guarded(() =>
          this.pool.query<[number]>({ ...hotStatements[this.options.statements ?? 'functions'].markBatch, values }),
        );
        const found = new Set(rows.map((row) => row[0]));
        batch.forEach((item, index) => item.resolve(found.has(index + 1)));
        return;
      } catch (error) {
        const code = sqlStateOf(error);
        if (code !== undefined && retryableStates.has(code) && attempt <= this.maxRetries) {
          // The statement was rolled back as a whole: the batch runs again as it was.
          this.retried += 1;
          this.options.onRetry?.({ code, attempt, error: error as Error });
          continue;
        }
        for (const item of batch) item.reject(error);
        return;
      }
    }
  }

  private guarded<T>(query: () => Promise<T>): Promise<T> {
    const health = this.options.health;
    return health === undefined ? query() : health.guard(query);
  }
}
