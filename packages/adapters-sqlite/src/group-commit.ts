import type { Database, Statement } from 'better-sqlite3';

interface PendingWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: the writes asked for in one turn of the event loop run, in order, in one `BEGIN IMMEDIATE`
 * transaction, each inside its own savepoint; every promise settles after the COMMIT, so nothing is acknowledged
 * before it is durable. Under load a commit (WAL frames, locks) is shared by all the writes of a turn instead of
 * being paid by each.
 *
 * A write that throws rolls back to its savepoint and rejects alone. If the transaction itself is lost (COMMIT
 * fails, or SQLite rolled it back on a full disk or an I/O error), each write that had not failed on its own is run
 * again in a transaction of its own, so one bad write never takes the others with it.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackToSavepoint: Statement;

  constructor(private readonly db: Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT grouped_write');
    this.release = db.prepare('RELEASE grouped_write');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO grouped_write');
  }

  /** Runs `write` (synchronous SQL on this connection) in the next group; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(this.flush);
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private readonly flush = (): void => {
    const group = this.pending;
    this.pending = [];
    try {
      if (group.length === 1) this.runAlone(group[0]!);
      else this.runTogether(group);
    } catch (error) {
      // Only a failing ROLLBACK gets here. A settled promise ignores a second settlement, so this rejects the rest.
      for (const { reject } of group) reject(error);
    }
  };

  private runTogether(group: readonly PendingWrite[]): void {
    try {
      this.begin.run();
    } catch (error) {
      // Another process held the write lock past the busy timeout: every write fails as it would alone.
      for (const { reject } of group) reject(error);
      return;
    }
    const results: unknown[] = [];
    const failed = new Set<PendingWrite>();
    for (const pending of group) {
      this.savepoint.run();
      try {
        results.push(pending.write());
        this.release.run();
      } catch (error) {
        failed.add(pending);
        pending.reject(error);
        results.push(undefined);
        if (!this.db.inTransaction) return this.runEachAlone(group, failed);
        this.rollbackToSavepoint.run();
        this.release.run();
      }
    }
    try {
      this.commit.run();
    } catch {
      if (this.db.inTransaction) this.rollback.run();
      return this.runEachAlone(group, failed);
    }
    group.forEach((pending, index) => {
      if (!failed.has(pending)) pending.resolve(results[index]);
    });
  }

  private runEachAlone(group: readonly PendingWrite[], failed: ReadonlySet<PendingWrite>): void {
    for (const pending of group) if (!failed.has(pending)) this.runAlone(pending);
  }

  private runAlone(pending: PendingWrite): void {
    let result: unknown;
    try {
      this.begin.run();
      result = pending.write();
      this.commit.run();
    } catch (error) {
      if (this.db.inTransaction) this.rollback.run();
      pending.reject(error);
      return;
    }
    pending.resolve(result);
  }
}
