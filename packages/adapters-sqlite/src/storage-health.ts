import { statSync } from 'node:fs';
import { StorageUnavailableError } from '@canteen-meals/domain';

/**
 * What the server and its readiness probe need to know about the storage; the SQLite and PostgreSQL adapters each have
 * one.
 */
export interface StorageHealth {
  /** Throws a `StorageUnavailableError` while the storage cannot keep a write. */
  assertAvailable(): void;
}

/** SQLite's result codes (primary code, before the first `_` of an extended one) that mean the storage itself fails. */
const failingPrimaryCodes = new Set([
  'SQLITE_READONLY',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
]);

/** True when `error` is a SQLite error that says the database cannot be written, not that one write was wrong. */
export function isSqliteStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return false;
  const underscore = code.indexOf('_', 'SQLITE_'.length);
  return failingPrimaryCodes.has(underscore === -1 ? code : code.slice(0, underscore));
}

export interface SqliteStorageHealthOptions {
  /** Called once each time the storage turns unavailable, with why (not once per refused request). */
  readonly onUnavailable?: (reason: string) => void;
}

/**
 * Watches one database file: whether the path still names the file the connection has open (a deleted data folder or
 * a replaced file leaves the connection writing into an unlinked inode, lost on restart), and whether the last write
 * failed because the storage did (read-only, full, I/O error). A replaced or deleted file stays unavailable until a
 * restart; a failing one until a write succeeds again.
 */
export class SqliteStorageHealth implements StorageHealth {
  private readonly identity: { readonly dev: number; readonly ino: number } | undefined;
  private fileProblem: string | undefined;
  private writeProblem: string | undefined;

  /** Call right after the connection opened `path`, so that the identity recorded is the one it holds. */
  constructor(
    private readonly path: string,
    private readonly options: SqliteStorageHealthOptions = {},
  ) {
    const stats = path === ':memory:' || path === '' ? undefined : statSync(path, { throwIfNoEntry: false });
    this.identity = stats === undefined ? undefined : { dev: stats.dev, ino: stats.ino };
  }

  /** One stat of the path: cheap enough for every group commit, not meant for every request. */
  checkFile(): void {
    if (this.identity === undefined || this.fileProblem !== undefined) return;
    const stats = statSync(this.path, { throwIfNoEntry: false });
    if (stats === undefined) this.markFile(`the database file ${this.path} was deleted while the server had it open`);
    else if (stats.dev !== this.identity.dev || stats.ino !== this.identity.ino) {
      this.markFile(`the database file ${this.path} was replaced by another file while the server had it open`);
    }
  }

  /**
   * Throws while the path no longer names the open file (one stat): what a write checks before it is acknowledged. A
   * failing storage does not stop a write from trying: the first to succeed clears it.
   */
  assertFileInPlace(): void {
    this.checkFile();
    if (this.fileProblem !== undefined) throw new StorageUnavailableError(this.fileProblem);
  }

  /** What a write checks before it starts: no stat, only what an earlier check found. */
  assertFileNotKnownGone(): void {
    if (this.fileProblem !== undefined) throw new StorageUnavailableError(this.fileProblem);
  }

  assertAvailable(): void {
    this.checkFile();
    const problem = this.fileProblem ?? this.writeProblem;
    if (problem !== undefined) throw new StorageUnavailableError(problem);
  }

  /** Turns a storage failure into a `StorageUnavailableError` (and remembers it); returns any other error as it is. */
  classify(error: unknown): unknown {
    if (!isSqliteStorageFailure(error)) return error;
    const { code, message } = error as { code: string; message: string };
    if (this.writeProblem === undefined && this.fileProblem === undefined) {
      this.options.onUnavailable?.(`SQLite cannot write the database ${this.path}: ${code}: ${message}`);
    }
    this.writeProblem = `${code}: ${message}`;
    return new StorageUnavailableError(this.writeProblem, { cause: error });
  }

  /** Runs a write outside the group commit (its own transaction) with the same checks before it is acknowledged. */
  guard<T>(write: () => T): T {
    this.assertFileNotKnownGone();
    let result: T;
    try {
      result = write();
    } catch (error) {
      throw this.classify(error);
    }
    this.assertFileInPlace();
    this.recordSuccess();
    return result;
  }

  /** A write committed: a storage that failed before is writable again. */
  recordSuccess(): void {
    this.writeProblem = undefined;
  }

  private markFile(reason: string): void {
    this.fileProblem = reason;
    this.options.onUnavailable?.(`${reason}; writes answer 503 until the server is restarted on the right file`);
  }
}
