import type { AuditAction, AuditEntry, AuditRecord, CanteenId } from '@canteen-meals/domain';
import type { AuditLog, AuditQuery } from '@canteen-meals/domain/ports';
import type { Pool, PoolClient } from 'pg';
import { fromEpochMs } from './meal-rows.js';
import type { PostgresStorageHealth } from './storage-health.js';

interface AuditRow {
  seq: string;
  at: Date;
  actor: string;
  actor_scopes: string[];
  action: AuditAction;
  canteen_id: CanteenId | null;
  target: string;
  summary: AuditEntry['summary'];
  request_id: string;
}

/** Ids are the row's sequence number, zero-padded so that they compare as strings in the order of appending. */
const idOf = (seq: string) => seq.padStart(12, '0');

function entryOf(row: AuditRow): AuditEntry {
  return {
    id: idOf(row.seq),
    at: row.at,
    actor: row.actor,
    actorScopes: row.actor_scopes,
    action: row.action,
    canteenId: row.canteen_id,
    target: row.target,
    summary: row.summary,
    requestId: row.request_id,
  };
}

const insert = `INSERT INTO audit_log (at, actor, actor_scopes, action, canteen_id, target, summary, request_id)
  SELECT ${fromEpochMs("(e ->> 'at')")}, e ->> 'actor', e -> 'actor_scopes', e ->> 'action', e ->> 'canteen_id',
    e ->> 'target', e -> 'summary', e ->> 'request_id'
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t (e, n) ORDER BY n`;

/**
 * Appends audit records in one statement on `client`: a repository calls it inside its change's transaction, so the
 * entries commit with the change or not at all.
 */
export async function appendAuditRecords(
  client: Pick<PoolClient, 'query'>,
  records: readonly AuditRecord[],
): Promise<void> {
  if (records.length === 0) return;
  await client.query(insert, [
    JSON.stringify(
      records.map((record) => ({
        at: record.at.getTime(),
        actor: record.actor,
        actor_scopes: record.actorScopes,
        action: record.action,
        canteen_id: record.canteenId,
        target: record.target,
        summary: record.summary,
        request_id: record.requestId,
      })),
    ),
  ]);
}

export class PostgresAuditLog implements AuditLog {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async append(records: readonly AuditRecord[]): Promise<void> {
    const write = () => appendAuditRecords(this.pool, records);
    await (this.health === undefined ? write() : this.health.guard(write));
  }

  async list(query: AuditQuery): Promise<readonly AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.canteenIds !== undefined) where.push(`canteen_id = ANY (${param([...query.canteenIds])}::text[])`);
    if (query.ofCanteens === true) where.push('canteen_id IS NOT NULL');
    if (query.actor !== undefined) where.push(`actor = ${param(query.actor)}`);
    if (query.action !== undefined) where.push(`action = ${param(query.action)}`);
    if (query.from !== undefined) where.push(`at >= ${fromEpochMs(param(query.from.getTime()))}`);
    if (query.to !== undefined) where.push(`at < ${fromEpochMs(param(query.to.getTime()))}`);
    if (query.after !== undefined) {
      where.push(`(at, seq) < (${fromEpochMs(param(query.after.at.getTime()))}, ${param(query.after.id)}::bigint)`);
    }
    // Ordered by the table's columns: the answer's `seq` is text, whose order is not the sequence's.
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT seq::text AS seq, at, actor, actor_scopes, action, canteen_id, target, summary, request_id FROM audit_log
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY audit_log.at DESC, audit_log.seq DESC LIMIT ${param(query.limit)}`,
      params,
    );
    return rows.map(entryOf);
  }

  async deleteOlderThan(before: Date): Promise<number> {
    const write = () => this.pool.query(`DELETE FROM audit_log WHERE at < ${fromEpochMs('$1')}`, [before.getTime()]);
    const { rowCount } = await (this.health === undefined ? write() : this.health.guard(write));
    return rowCount ?? 0;
  }
}
