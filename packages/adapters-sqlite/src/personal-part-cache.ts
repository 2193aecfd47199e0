import type { MealId, UserId } from '@canteen-meals/domain';
import type { Database } from 'better-sqlite3';

/** One read of a user's personal part: the raw row of the range `low` to `high` of meal ids. */
interface KeptPart<Row> {
  readonly low: MealId;
  readonly high: MealId;
  readonly row: Row;
}

/**
 * The personal parts (a user's marks and ratings of a range of meals, with their label filter and aversions) that
 * this process read, kept until it changes them. Every personalized menu read asks for one, and on a quiet menu the
 * answer is the same each time: the statement was a third of the CPU of GET /me/meals (docs/benchmarks.md).
 *
 * Exact because on SQLite one process writes the database (one instance: docs/deployment.md) and every statement
 * that changes a user's markings, ratings, label filter or aversions runs in a repository of this adapter on the same
 * connection, which forgets that user's part right after it (a dish merge, which moves the aversions of every user of
 * the merged dishes, forgets every part). Statements run synchronously, so no read can fall between a write and its
 * forgetting. The command-line tools (imports, backups) write no personal rows.
 */
export class PersonalPartCache<Row> {
  private readonly kept = new Map<UserId, KeptPart<Row>>();

  /** `maxUsers`: past it, the user read longest ago is forgotten (a Map iterates in insertion order). */
  constructor(private readonly maxUsers = 10_000) {}

  get(userId: UserId, low: MealId, high: MealId): Row | undefined {
    const kept = this.kept.get(userId);
    return kept !== undefined && kept.low === low && kept.high === high ? kept.row : undefined;
  }

  keep(userId: UserId, low: MealId, high: MealId, row: Row): void {
    this.kept.delete(userId);
    if (this.kept.size >= this.maxUsers) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(userId, { low, high, row });
  }

  /** After a write of the user's markings, ratings, filter or aversions. */
  forget(userId: UserId): void {
    this.kept.delete(userId);
  }

  /** After a write that changes the parts of users it does not name. */
  forgetAll(): void {
    this.kept.clear();
  }
}

const caches = new WeakMap<Database, PersonalPartCache<unknown>>();

/** The cache of the connection: every repository on it, of one adapter set or more, shares it. */
export function personalPartCacheOf<Row>(db: Database): PersonalPartCache<Row> {
  let cache = caches.get(db);
  if (cache === undefined) caches.set(db, (cache = new PersonalPartCache()));
  return cache as PersonalPartCache<Row>;
}
