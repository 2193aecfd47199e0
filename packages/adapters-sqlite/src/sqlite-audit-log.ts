import type { AuditAction, AuditEntry, AuditRecord, CanteenId } from '@canteen-meals/domain';
import type { AuditLog, AuditQuery } from '@canteen-meals/domain/ports';
import type { Database, Statement } from 'better-sqlite3';
import type { SqliteStorageHealth } from './storage-health.js';

interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  actor_scopes: string;
  action: AuditAction;
  canteen_id: CanteenId | null;
  target: string;
  summary: string;
  request_id: string;
}

/** Ids are the row's sequence number, zero-padded so that they compare as strings in the order of appending. */
const idOf = (seq: number) => String(seq).padStart(12, '0');

function entryOf(row: AuditRow): AuditEntry {
  return {
    id: idOf(row.seq),
    at: new Date(row.at),
    actor: row.actor,
    actorScopes: JSON.parse(row.actor_scopes) as string[],
    action: row.action,
    canteenId: row.canteen_id,
    target: row.target,
    summary: JSON.parse(row.summary) as AuditEntry['summary'],
    requestId: row.request_id,
  };
}

/**
 * Appends audit records with one statement; a repository calls it inside its change's transaction, on the same
 * connection, so the entries commit or roll back with the change.
 */
export class SqliteAuditWriter {
  private readonly insert: Statement<[string]>;

  constructor(db: Database) {
    this.insert =
      db.prepare(`INSERT INTO audit_log (at, actor, actor_scopes, action, canteen_id, target, summary, request_id)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
      FROM json_each(?) ORDER BY key`);
  }

  append(records: readonly AuditRecord[]): void {
    if (records.length === 0) return;
    this.insert.run(
      JSON.stringify(
        records.map((record) => [
          record.at.getTime(),
          record.actor,
          JSON.stringify(record.actorScopes),
          record.action,
          record.canteenId,
          record.target,
          JSON.stringify(record.summary),
          record.requestId,
        ]),
      ),
    );
  }
}

export class SqliteAuditLog implements AuditLog {
  private readonly writer: SqliteAuditWriter;
  private readonly deleteBefore: Statement<[number]>;

  constructor(
    private readonly db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.writer = new SqliteAuditWriter(db);
    this.deleteBefore = db.prepare('DELETE FROM audit_log WHERE at < ?');
  }

  async append(records: readonly AuditRecord[]): Promise<void> {
    const append = () => this.writer.append(records);
    return this.health === undefined ? append() : this.health.guard(append);
  }

  async list(query: AuditQuery): Promise<readonly AuditEntry[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.canteenIds !== undefined) {
      where.push('canteen_id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(query.canteenIds));
    }
    if (query.ofCanteens === true) where.push('canteen_id IS NOT NULL');
    if (query.actor !== undefined) {
      where.push('actor = ?');
      params.push(query.actor);
    }
    if (query.action !== undefined) {
      where.push('action = ?');
      params.push(query.action);
    }
    if (query.from !== undefined) {
      where.push('at >= ?');
      params.push(query.from.getTime());
    }
    if (query.to !== undefined) {
      where.push('at < ?');
      params.push(query.to.getTime());
    }
    if (query.after !== undefined) {
      where.push('(at < ? OR (at = ? AND seq < ?))');
      const at = query.after.at.getTime();
      params.push(at, at, Number(query.after.id));
    }
    const sql = `SELECT * FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY at DESC, seq DESC LIMIT ?`;
    // A few shapes of filter: prepared per call (cheap next to the read of an operator's page).
    return this.db
      .prepare<(string | number)[], AuditRow>(sql)
      .all(...params, query.limit)
      .map(entryOf);
  }

  async deleteOlderThan(before: Date): Promise<number> {
    const run = () => this.deleteBefore.run(before.getTime()).changes;
    return this.health === undefined ? run() : this.health.guard(run);
  }
}
