import type { AuditNote, Webhook, WebhookDefinition, WebhookId } from '@canteen-meals/domain';
import type { WebhookRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import { appendAuditRecords } from './postgres-audit-log.js';
import { fromEpochMs } from './meal-rows.js';
import type { TransactionRunner } from './transaction.js';
import { webhookColumns, webhookFromRow, type WebhookRow } from './webhook-rows.js';

export class PostgresWebhookRepository implements WebhookRepository {
  constructor(
    private readonly pool: Pool,
    private readonly transactions: TransactionRunner,
  ) {}

  /** One statement; a replaced endpoint keeps its creation and is enabled again. */
  async save(
    definition: WebhookDefinition,
    at: Date,
    audit?: AuditNote<{ readonly webhook: Webhook; readonly created: boolean }>,
  ): Promise<{ readonly webhook: Webhook; readonly created: boolean }> {
    return this.transactions.run(async (client) => {
      const { rows } = await client.query<WebhookRow & { created: boolean }>(
        `INSERT INTO webhooks (${webhookColumns})
         VALUES ($1, $2, $3::text[], $4, ${fromEpochMs('$5')}, ${fromEpochMs('$5')}, NULL, NULL)
         ON CONFLICT (webhook_id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret,
           updated_at = excluded.updated_at, failing_since = NULL, disabled_at = NULL
         RETURNING ${webhookColumns}, (xmax = 0) AS created`,
        [definition.id, definition.url, definition.events, definition.secret, at.getTime()],
      );
      const row = rows[0]!;
      const saved = { webhook: webhookFromRow(row), created: row.created };
      if (audit !== undefined) await appendAuditRecords(client, audit(saved));
      return saved;
    });
  }

  async find(id: WebhookId): Promise<Webhook | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(`SELECT ${webhookColumns} FROM webhooks WHERE webhook_id = $1`, [
      id,
    ]);
    return rows[0] === undefined ? undefined : webhookFromRow(rows[0]);
  }

  async list(): Promise<readonly Webhook[]> {
    const { rows } = await this.pool.query<WebhookRow>(
      `SELECT ${webhookColumns} FROM webhooks ORDER BY webhook_id COLLATE "C"`,
    );
    return rows.map(webhookFromRow);
  }

  /**
   * The deliveries first, then the endpoint: the lock order of a record (its delivery, then its endpoint), so the two
   * never deadlock. The foreign key's ON DELETE CASCADE takes any delivery a fan-out added in between.
   */
  async remove(id: WebhookId, audit?: AuditNote<{ readonly id: WebhookId }>): Promise<boolean> {
    return this.transactions.run(async (client) => {
      await client.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [id]);
      const { rowCount } = await client.query('DELETE FROM webhooks WHERE webhook_id = $1', [id]);
      const removed = (rowCount ?? 0) > 0;
      if (removed && audit !== undefined) await appendAuditRecords(client, audit({ id }));
      return removed;
    });
  }
}
