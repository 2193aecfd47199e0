import {
  applyRatingChange,
  changesAnything,
  emptyHistogram,
  type DishId,
  type Meal,
  type MealId,
  type RatingChange,
  type RatingHistogram,
  type RatingRefusal,
  type RatingSnapshot,
  type RatingValue,
  type Result,
  type UserId,
} from '@canteen-meals/domain';
import type { RatingDecision, RatingRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { BatchQueue, type BatchQueueOptions } from './batch-queue.js';
import { CombinedWrites } from './combined-writes.js';
import type { AppliedRow, ExactAnswer } from './rating-batch-answers.js';
import {
  applyBatchValues,
  dishIdOf,
  writeBatchValues,
  type ApplyRow,
  type BatchChange,
  type ReadMeal,
  type ReadRow,
  type WriteRow,
} from './rating-batch-statements.js';
import { hotStatements, type applyPipeline, type HotStatementForm } from './hot-statements.js';
import { queryPipeline, StatementPipeline, type TextRow } from './statement-pipeline.js';
import type { PostgresStorageHealth } from './storage-health.js';
import { retryableStates, sqlStateOf, type RetryEvent } from './transaction.js';

export interface RatingBatchOptions extends BatchQueueOptions {
  /**
   * How many batches one change may take part in before it fails: it is run again when another writer changed its
   * rating or its meal between the batch's read and its write, or when PostgreSQL aborted the write (deadlock).
   * 10 by default; reaching it means something keeps changing that rating, which no person does.
   */
  readonly maxAttempts?: number;
}

export interface PostgresRatingOptions extends RatingBatchOptions {
  readonly health?: PostgresStorageHealth | undefined;
  /** Told of every batch run again after a deadlock or serialization failure (like the transactions' retries). */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Which form of the read and write statements to send (see hot-statements.ts); `functions` by default. */
  readonly statements?: HotStatementForm | undefined;
}

/**
 * The write's SQLSTATEs after which its batches run again: those of every transaction, and check_violation.
 * PostgreSQL checks a row's CHECK constraints (a histogram's counts >= 0) on the row computed from the version the
 * statement's snapshot sees, before it finds that another transaction updated the row meanwhile and computes it again
 * from the newest one: a rating taken out of a meal that moved to another dish while the write waited for the meal
 * fails so, though the dish holds it by then (test/rating-races.test.ts). Run again, the write's snapshot holds the
 * move; a real violation still fails, after maxAttempts.
 */
const writeRetryableStates: ReadonlySet<string> = new Set([...retryableStates, '23514']);

/** A change that never settled: something kept changing its rating or its meal. A bug or an attack, not contention. */
export class RatingNotSettledError extends Error {
  override readonly name = 'RatingNotSettledError';
}

interface PendingChange {
  readonly key: string;
  readonly userId: UserId;
  readonly mealId: MealId;
  readonly decide: RatingDecision;
  readonly resolve: (result: Result<RatingChange, RatingRefusal>) => void;
  readonly reject: (reason: unknown) => void;
  attempts: number;
}

/**
 * Rating changes in batches (see the README, "How a rating change stays atomic across instances"): the changes
 * asked for together are read in one statement, decided one by one by the domain's `decide` (the rules stay in
 * TypeScript), and written in one statement that applies each as a compare-and-set and adds histogram deltas, so a
 * hot meal's row is locked once per batch, not once per rating. A change whose compare-and-set failed runs again in
 * the next batch (read again, decided again). Refusals and changes that change nothing are answered from the read.
 */
export class PostgresRatingRepository implements RatingRepository {
  private readonly queue: BatchQueue<PendingChange>;
  private readonly maxAttempts: number;
  private readonly statements;
  private retried = 0;
  private rerun = 0;
  /**
   * One write of this instance at a time, and the batches decided meanwhile written together by the next: the batches
   * of one instance mostly share their hot meals, so a second write under way would only wait for the first one's
   * meal rows until its commit. Two writes at once did worse in every form tried (docs/decisions.md, "One write at a
   * time on PostgreSQL").
   */
  private readonly writes = new CombinedWrites((meals, changes) => this.writeChanges(meals, changes));
  /** The rule fields of the meals this instance read, by meal: what a change decided ahead of a read is decided on. */
  private readonly knownMeals = new Map<MealId, KnownMeal>();

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresRatingOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.statements = hotStatements[options.statements ?? 'functions'];
    // Sixteen under way: while one write runs, the batches after it read (or not) and decide, and the next write takes
    // them all; a change that found every batch taken waited for a write more (docs/benchmarks.md, "Decided ahead").
    this.queue = new BatchQueue((batch, requeue) => this.runBatch(batch, requeue), {
      maxBatchesInFlight: 16,
      ...options,
    });
  }

  /** Batches run again after PostgreSQL aborted their write (a deadlock with another writer). */
  get retryCount(): number {
    return this.retried;
  }

  /** Changes run again because their rating or meal changed between their batch's read and write. */
  get rerunCount(): number {
    return this.rerun;
  }

  change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>> {
    return new Promise((resolve, reject) => {
      // JSON: a user id may hold any character, so no separator could tell the two parts apart.
      this.queue.add({ key: JSON.stringify([mealId, userId]), userId, mealId, decide, resolve, reject, attempts: 0 });
    });
  }

  private async runBatch(
    batch: readonly PendingChange[],
    requeue: (items: readonly PendingChange[]) => void,
  ): Promise<void> {
    const unsettled = new Set(batch);
    const settle = (
      item: PendingChange,
      outcome: { result: Result<RatingChange, RatingRefusal> } | { error: unknown },
    ) => {
      unsettled.delete(item);
      if ('result' in outcome) item.resolve(outcome.result);
      else item.reject(outcome.error);
    };
    const again: PendingChange[] = [];
    const runAgain = (item: PendingChange, why: () => Error) => {
      unsettled.delete(item);
      item.attempts += 1;
      if (item.attempts >= this.maxAttempts) item.reject(why());
      else again.push(item);
    };
    try {
      const changes: BatchChange[] = [];
      const meals = new Map<MealId, ReadMeal>();
      // Positions (1-based) in the batch: each change is decided ahead of any read, or read and then decided.
      const aheadAt = new Map<number, { item: PendingChange; ahead: DecidedAhead }>();
      const toRead: { item: PendingChange; n: number }[] = [];
      batch.forEach((item, index) => {
        const ahead = this.decideAhead(item);
        if (ahead === undefined) {
          toRead.push({ item, n: index + 1 });
          return;
        }
        aheadAt.set(index + 1, { item, ahead });
      });
      const decided = new Map<number, { item: PendingChange; change: RatingChange }>();
      if (toRead.length > 0) {
        const rows = await this.guarded(() =>
          this.pool.query<ReadRow>({
            ...this.statements.readRatingBatch,
            values: [toRead.map(({ item }) => item.mealId), toRead.map(({ item }) => item.userId)],
          }),
        );
        const byPosition = new Map(rows.rows.map((row) => [row[0], row]));
        toRead.forEach(({ item, n }, index) => {
          const row = byPosition.get(index + 1);
          if (row !== undefined) this.remember(item.mealId, row);
          let decision: Result<RatingChange, RatingRefusal>;
          let snapshot: RatingSnapshot;
          try {
            snapshot = snapshotOf(item.mealId, row);
            decision = item.decide(snapshot);
          } catch (error) {
            return settle(item, { error });
          }
          // A refusal or a change of nothing writes nothing: answered as of the read, one consistent snapshot.
          if (!decision.ok || !changesAnything(decision.value)) return settle(item, { result: decision });
          const change = decision.value;
          let delta: RatingHistogram;
          try {
            delta = deltaOf(snapshot, change);
          } catch (error) {
            return settle(item, { error });
          }
          changes.push({
            n,
            mealId: item.mealId,
            userId: item.userId,
            previous: snapshot.current,
            next: change.next,
            delta,
          });
          decided.set(n, { item, change });
          meals.set(item.mealId, { mealId: item.mealId, servedMs: row![2], rateable: row![3] });
        });
      }
      for (const [n, { item, ahead }] of aheadAt) {
        const read = meals.get(item.mealId);
        if (read !== undefined && (read.servedMs !== ahead.meal.servedMs || read.rateable !== ahead.meal.rateable)) {
          // The batch's read found the meal's rule fields changed since they were kept: decide again on what is now.
          aheadAt.delete(n);
          this.rerun += 1;
          runAgain(
            item,
            () => new RatingNotSettledError(`the meal ${item.mealId} kept changing under ${this.maxAttempts} attempts`),
          );
          continue;
        }
        changes.push({ ahead: true, n, mealId: item.mealId, userId: item.userId, next: ahead.next });
        meals.set(item.mealId, ahead.meal);
      }
      if (changes.length === 0) return;
      // In batch order (those read were put first): the write numbers them so, and answers them in that order.
      changes.sort((a, b) => a.n - b.n);
      let answers: Map<number, ExactAnswer>;
      try {
        answers = await this.writes.submit({ meals: [...meals.values()], changes });
      } catch (error) {
        const code = sqlStateOf(error);
        if (code === undefined || !writeRetryableStates.has(code)) throw error;
        // The statement was rolled back as a whole: every change of it runs again.
        this.retried += 1;
        const items = [
          ...[...decided.values()].map(({ item }) => item),
          ...[...aheadAt.values()].map(({ item }) => item),
        ];
        this.options.onRetry?.({
          code,
          attempt: Math.max(...items.map((item) => item.attempts)) + 1,
          error: error as Error,
        });
        for (const item of items)
          runAgain(
            item,
            () =>
              new RatingNotSettledError(`rating of meal ${item.mealId} aborted ${this.maxAttempts} times`, {
                cause: error,
              }),
          );
        return;
      }
      const settleWritten = (
        item: PendingChange,
        answer: ExactAnswer | undefined,
        change: RatingChange | undefined,
      ) => {
        if (answer !== undefined && change !== undefined) {
          settle(item, { result: { ok: true, value: { ...change, histogram: answer.histogram, dish: answer.dish } } });
          return;
        }
        // Not applied: its rating or its meal changed since the read, or since the meal's rule fields were kept (or a
        // writer that does not lock meals wrote its rating). Read and decide again, the meal's rule fields included.
        this.knownMeals.delete(item.mealId);
        this.rerun += 1;
        runAgain(
          item,
          () =>
            new RatingNotSettledError(
              `the rating of meal ${item.mealId} by one user kept changing under ${this.maxAttempts} attempts`,
            ),
        );
      };
      for (const [n, { item, change }] of decided) settleWritten(item, answers.get(n), change);
      for (const [n, { item, ahead }] of aheadAt) {
        const answer = answers.get(n);
        settleWritten(item, answer, answer === undefined ? undefined : ahead.decisions.get(answer.previous));
      }
    } catch (error) {
      for (const item of [...unsettled]) settle(item, { error });
    } finally {
      requeue(again);
    }
  }

  /**
   * The change decided ahead of any read, or undefined when it must be read first: its meal's rule fields are known
   * from an earlier read (the write checks them under the meal's lock), and `decide`, asked for every rating the user
   * could hold (none, 1 to 5), accepts each with one next rating and moves the histograms by exactly that rating
   * (what the apply statement adds). A refusal, an error or a decision that depends on the rating is read first.
   */
  private decideAhead(item: PendingChange): DecidedAhead | undefined {
    if (this.statements.writeRatingBatch.takes !== 'changes decided ahead too') return undefined;
    const known = this.knownMeals.get(item.mealId);
    if (known === undefined) return undefined;
    const { meal } = known;
    const decisions = new Map<RatingValue | null, RatingChange>();
    let next: RatingValue | null | undefined;
    for (const current of possibleRatings) {
      let decision: Result<RatingChange, RatingRefusal>;
      try {
        decision = item.decide({ meal, current, histogram: oneOfEach, dish: known.dish });
      } catch {
        return undefined;
      }
      if (!decision.ok) return undefined;
      const change = decision.value;
      if (change.previous !== current || (next !== undefined && change.next !== next) || !movesOneRating(change))
        return undefined;
      next = change.next;
      decisions.set(current, change);
    }
    return { next: next!, decisions, meal: known.read };
  }

  /** Keeps a meal's rule fields as a read found them, for the changes of the meal decided ahead of the next read. */
  private remember(mealId: MealId, row: ReadRow): void {
    if (row[4] === null) return;
    if (this.knownMeals.size >= knownMealsLimit && !this.knownMeals.has(mealId)) this.knownMeals.clear();
    const [, name, servedMs, rateable, dishId] = row;
    this.knownMeals.set(mealId, {
      meal: { id: mealId, name, servedAt: new Date(Number(servedMs)), rateable },
      dish: { id: Number(dishId), histogram: oneOfEach },
      read: { mealId, servedMs, rateable },
    });
  }

  /** One write: the batches' changes as compare-and-sets, the deltas added (see rating-batch-statements.ts). */
  private async writeChanges(meals: readonly ReadMeal[], changes: readonly BatchChange[]): Promise<AppliedRow[]> {
    const write = this.statements.writeRatingBatch;
    if (write.takes === 'changes decided ahead too') return this.applyChanges(write.pipeline, meals, changes);
    const readChanges = changes.map((change) => {
      if (change.ahead) throw new Error('a change decided ahead of a read needs the apply statement');
      return change;
    });
    const { rows } = await this.guarded(() =>
      this.pool.query<WriteRow>({ ...write.statement, values: writeBatchValues(meals, readChanges) }),
    );
    return rows.map((row) => ({
      n: row[0],
      histogram: [row[2], row[3], row[4], row[5], row[6]],
      dishId: dishIdOf(row[1]),
      dishHistogram: row[7] === null ? null : [row[7], row[8]!, row[9]!, row[10]!, row[11]!],
    }));
  }

  /**
   * The apply (hot-statements.ts, `applyPipeline`): the rows of the changes it applied, and of those decided ahead that
   * changed nothing (the rating found was already the next one), each with what it moved; no row for the others, which
   * run again.
   */
  private async applyChanges(
    apply: typeof applyPipeline,
    meals: readonly ReadMeal[],
    changes: readonly BatchChange[],
  ): Promise<AppliedRow[]> {
    const [mealIds, servedMs, rateable, ...changeValues] = applyBatchValues(meals, changes);
    const pipeline = new StatementPipeline(apply.label, [
      { ...apply.settings, values: [] },
      { ...apply.lock, values: [mealIds, servedMs, rateable] },
      { ...apply.apply, values: changeValues },
    ]);
    const rows = (await this.guarded(() => queryPipeline(this.pool, pipeline))).map(applyRowOf);
    const changeAt = new Map(changes.map((change) => [change.n, change]));
    const answered: AppliedRow[] = [];
    for (const row of rows) {
      const [n, previous, applied, dishId] = row;
      const change = changeAt.get(n);
      if (change === undefined)
        throw new Error(`the apply statement answered change ${n}, which the batch does not hold`);
      const unchanged = change.ahead === true && previous === change.next;
      if (!applied && !unchanged) continue;
      answered.push({
        n,
        previous,
        ...(applied ? { delta: movedBy(previous, change.next) } : { unchanged: true }),
        histogram: [row[4], row[5], row[6], row[7], row[8]],
        dishId: dishIdOf(dishId),
        dishHistogram: row[9] === null ? null : [row[9], row[10]!, row[11]!, row[12]!, row[13]!],
      });
    }
    return answered;
  }

  private guarded<T>(query: () => Promise<T>): Promise<T> {
    const health = this.options.health;
    return health === undefined ? query() : health.guard(query);
  }
}

/** The ratings a user can hold: none, or 1 to 5. */
const possibleRatings: readonly (RatingValue | null)[] = [null, 1, 2, 3, 4, 5];

/** The histogram a change decided ahead is asked on: any rating can be taken out of it. */
const oneOfEach: RatingHistogram = [1, 1, 1, 1, 1];

/** Meals whose rule fields an instance keeps; past it, it forgets them all and reads them again (a day has ~50). */
const knownMealsLimit = 10_000;

/**
 * What an instance keeps of a meal it read: the meal and dish `decide` is asked ahead about, the fields the write
 * checks.
 */
interface KnownMeal {
  readonly meal: Meal;
  readonly dish: { readonly id: DishId; readonly histogram: RatingHistogram };
  readonly read: ReadMeal;
}

interface DecidedAhead {
  readonly next: RatingValue | null;
  /** The decision for each rating the user could hold, the answer for the one the write finds. */
  readonly decisions: ReadonlyMap<RatingValue | null, RatingChange>;
  readonly meal: ReadMeal;
}

/** What a rating going from `previous` to `next` adds to a histogram. */
function movedBy(previous: RatingValue | null, next: RatingValue | null): RatingHistogram {
  return emptyHistogram.map(
    (_, index) => (next === index + 1 ? 1 : 0) - (previous === index + 1 ? 1 : 0),
  ) as unknown as RatingHistogram;
}

/** Whether a decision moves the meal's and the dish's histograms by its rating alone, as the apply statement does. */
function movesOneRating(change: RatingChange): boolean {
  const expected = applyRatingChange(oneOfEach, change.previous, change.next);
  const same = (histogram: RatingHistogram) => histogram.every((count, index) => count === expected[index]);
  return same(change.histogram) && (change.dish === null || same(change.dish.histogram));
}

/** An answer row of the apply statement, from PostgreSQL's text format (the types node-postgres would parse it to). */
function applyRowOf(row: TextRow): ApplyRow {
  const [n, previous, applied, dishId, ...counts] = row;
  const count = (index: number) => Number(counts[index]);
  const dishCount = (index: number) => (counts[index] == null ? null : Number(counts[index]));
  if (row.length !== 14 || n == null || applied == null || counts.slice(0, 5).some((field) => field == null)) {
    throw new Error(`the apply statement answered a row it never answers: ${JSON.stringify(row)}`);
  }
  return [
    Number(n),
    previous == null ? null : (Number(previous) as RatingValue),
    applied === 't',
    dishId ?? null,
    count(0),
    count(1),
    count(2),
    count(3),
    count(4),
    dishCount(5),
    dishCount(6),
    dishCount(7),
    dishCount(8),
    dishCount(9),
  ];
}

function snapshotOf(mealId: MealId, row: ReadRow | undefined): RatingSnapshot {
  if (row === undefined) return { meal: undefined, current: null, histogram: emptyHistogram, dish: undefined };
  const [
    ,
    name,
    servedMs,
    rateable,
    dishId,
    rated1,
    rated2,
    rated3,
    rated4,
    rated5,
    dish1,
    dish2,
    dish3,
    dish4,
    dish5,
    rating,
  ] = row;
  if (dishId === null || dish1 === null) throw new Error(`meal ${mealId} has no dish`);
  return {
    meal: { id: mealId, name, servedAt: new Date(Number(servedMs)), rateable },
    current: rating,
    histogram: [rated1, rated2, rated3, rated4, rated5],
    dish: { id: Number(dishId), histogram: [dish1, dish2!, dish3!, dish4!, dish5!] },
  };
}

/**
 * What the decision adds to the histograms, as it computed them. The meal's and the dish's must agree: a rating
 * counts in both, which is what keeps a dish's histogram the sum of its servings'.
 */
function deltaOf(snapshot: RatingSnapshot, change: RatingChange): RatingHistogram {
  const delta = change.histogram.map(
    (count, index) => count - snapshot.histogram[index]!,
  ) as unknown as RatingHistogram;
  const dish = change.dish;
  if (dish !== null && snapshot.dish !== undefined) {
    const dishDelta = dish.histogram.map((count, index) => count - snapshot.dish!.histogram[index]!);
    if (dishDelta.some((count, index) => count !== delta[index])) {
      throw new Error(
        `the decision changes meal ${change.mealId} by ${delta.join(',')} but its dish by ${dishDelta.join(',')}`,
      );
    }
  }
  return delta;
}
