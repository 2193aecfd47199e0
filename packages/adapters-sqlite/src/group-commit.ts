import type { Database, Statement } from 'better-sqlite3';
import type { SqliteStorageHealth } from './storage-health.js';

/**
 * What a write returns to refuse, having written nothing: its promise rejects with `reason`, and the rest of its
 * group goes on as if it had not been asked for.
 */
export class Refusal {
  constructor(readonly reason: unknown) {}
}

interface PendingWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: the writes asked for in one turn of the event loop run, in order, in one `BEGIN IMMEDIATE`
 * transaction, and every promise settles after the COMMIT, so nothing is acknowledged before it is durable. Under
 * load a commit (WAL frames, locks) is shared by all the writes of a turn instead of being paid by each.
 *
 * A write refuses by returning a `Refusal`, never by throwing: a write that throws may have changed part of what it
 * meant to, so it rejects, the group's transaction is rolled back, and every other write of the group runs again in
 * a transaction of its own. The same happens when the COMMIT fails or SQLite drops the transaction (a full disk, an
 * I/O error). So one failing write never takes the others with it, and the happy path pays no savepoint per write.
 *
 * With a `SqliteStorageHealth`, a group whose storage is unavailable writes nothing; after a group's commits, one stat
 * checks that the path still names the open file before any write is acknowledged; and an error that says the storage
 * fails (read-only, full, I/O) rejects as a `StorageUnavailableError`.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  /** The writes of the running flush that committed, settled once the file is known to be still in place. */
  private committed: { pending: PendingWrite; result: unknown }[] = [];

  constructor(
    private readonly db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /**
   * Runs `write` (synchronous SQL on this connection) in the next group; resolves with its result once committed,
   * or rejects with the reason of the `Refusal` it returned.
   */
  run<T>(write: () => T | Refusal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(this.flush);
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private readonly flush = (): void => {
    const group = this.pending;
    this.pending = [];
    try {
      this.health?.assertFileNotKnownGone();
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    this.committed = [];
    try {
      if (group.length === 1) this.runAlone(group[0]!);
      else this.runTogether(group);
    } catch (error) {
      // Only a failing ROLLBACK gets here. A settled promise ignores a second settlement, so this rejects the rest.
      for (const { reject } of group) reject(this.classify(error));
    }
    this.acknowledgeCommitted();
  };

  private acknowledgeCommitted(): void {
    const committed = this.committed;
    this.committed = [];
    if (committed.length === 0) return;
    try {
      this.health?.assertFileInPlace();
    } catch (error) {
      // Committed into a file that is no longer the database's: acknowledging would promise a write that is lost.
      for (const { pending } of committed) pending.reject(error);
      return;
    }
    this.health?.recordSuccess();
    for (const { pending, result } of committed) settle(pending, result);
  }

  private classify(error: unknown): unknown {
    return this.health === undefined ? error : this.health.classify(error);
  }

  private runTogether(group: readonly PendingWrite[]): void {
    try {
      this.begin.run();
    } catch (error) {
      // Another process held the write lock past the busy timeout: every write fails as it would alone.
      const reason = this.classify(error);
      for (const { reject } of group) reject(reason);
      return;
    }
    const results: unknown[] = [];
    for (const pending of group) {
      try {
        results.push(pending.write());
      } catch (error) {
        pending.reject(this.classify(error));
        this.rollbackIfOpen();
        return this.runEachAloneBut(group, pending);
      }
    }
    try {
      this.commit.run();
    } catch {
      this.rollbackIfOpen();
      return this.runEachAloneBut(group, undefined);
    }
    group.forEach((pending, index) => this.committed.push({ pending, result: results[index] }));
  }

  private runEachAloneBut(group: readonly PendingWrite[], failed: PendingWrite | undefined): void {
    for (const pending of group) if (pending !== failed) this.runAlone(pending);
  }

  private runAlone(pending: PendingWrite): void {
    let result: unknown;
    try {
      this.begin.run();
      result = pending.write();
      this.commit.run();
    } catch (error) {
      this.rollbackIfOpen();
      pending.reject(this.classify(error));
      return;
    }
    this.committed.push({ pending, result });
  }

  private rollbackIfOpen(): void {
    if (this.db.inTransaction) this.rollback.run();
  }
}

function settle({ resolve, reject }: PendingWrite, result: unknown): void {
  if (result instanceof Refusal) reject(result.reason);
  else resolve(result);
}
