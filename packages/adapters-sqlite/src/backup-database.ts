import { existsSync, renameSync, rmSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

export interface BackupReport {
  readonly pages: number;
  readonly meals: number;
  readonly ratings: number;
  readonly markings: number;
}

/**
 * Copies a live database into `target` with SQLite's online backup API. The whole copy is one backup step, so it
 * reads one consistent snapshot; in WAL mode the server keeps writing meanwhile. The copy is checked with
 * `PRAGMA integrity_check`, made a single self-contained file, and only then renamed to `target`.
 */
export async function backupSqliteDatabase(source: string, target: string): Promise<BackupReport> {
  if (!existsSync(source)) throw new Error(`${source} does not exist`);
  if (existsSync(target)) throw new Error(`${target} already exists; choose a new file name`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // Pages per step after the first: all of them, so that no write between two steps restarts the copy.
    const { totalPages } = await db.backup(partial, { progress: () => 0x7fffffff });
    const report = checkBackup(partial, totalPages);
    renameSync(partial, target);
    return report;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

function checkBackup(file: string, pages: number): BackupReport {
  const copy = new BetterSqlite3(file, { fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the backup failed its integrity check: ${String(integrity)}`);
    // The copy keeps the source's WAL flag; a rollback journal makes it one file that can be copied as it is.
    copy.pragma('journal_mode = DELETE');
    const count = (table: string) => (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { pages, meals: count('meals'), ratings: count('ratings'), markings: count('markings') };
  } finally {
    copy.close();
  }
}
