import type { AuditNote, Webhook, WebhookDefinition, WebhookId } from '@canteen-meals/domain';
import type { WebhookRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
import { webhookColumns, webhookFromRow, type WebhookRow } from './sqlite-webhook-rows.js';
import type { SqliteStorageHealth } from './storage-health.js';

type SavedWebhook = { readonly webhook: Webhook; readonly created: boolean };

export class SqliteWebhookRepository implements WebhookRepository {
  private readonly selectOne: Statement<[WebhookId], WebhookRow>;
  private readonly selectAll: Statement<[], WebhookRow>;
  private readonly saveInTransaction: Transaction<
    (definition: WebhookDefinition, at: Date, audit: AuditNote<SavedWebhook> | undefined) => SavedWebhook
  >;
  private readonly removeInTransaction: Transaction<
    (id: WebhookId, audit: AuditNote<{ readonly id: WebhookId }> | undefined) => boolean
  >;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.selectOne = db.prepare(`SELECT ${webhookColumns} FROM webhooks WHERE webhook_id = ?`);
    this.selectAll = db.prepare(`SELECT ${webhookColumns} FROM webhooks ORDER BY webhook_id`);
    // A replaced endpoint keeps its creation and is enabled again.
    type SavedParams = { id: WebhookId; url: string; events: string; secret: string; at: number };
    const upsert = db.prepare<SavedParams, WebhookRow>(`INSERT INTO webhooks (${webhookColumns})
      VALUES (@id, @url, @events, @secret, @at, @at, NULL, NULL)
      ON CONFLICT (webhook_id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret,
        updated_at = excluded.updated_at, failing_since = NULL, disabled_at = NULL
      RETURNING ${webhookColumns}`);
    const auditLog = new SqliteAuditWriter(db);
    this.saveInTransaction = db.transaction((definition, at, audit) => {
      const created = this.selectOne.get(definition.id) === undefined;
      const { id, url, secret } = definition;
      const row = upsert.get({ id, url, events: JSON.stringify(definition.events), secret, at: at.getTime() })!;
      const saved = { webhook: webhookFromRow(row), created };
      if (audit !== undefined) auditLog.append(audit(saved));
      return saved;
    });
    const deleteDeliveries = db.prepare<[WebhookId]>('DELETE FROM webhook_deliveries WHERE webhook_id = ?');
    const deleteWebhook = db.prepare<[WebhookId]>('DELETE FROM webhooks WHERE webhook_id = ?');
    this.removeInTransaction = db.transaction((id, audit) => {
      deleteDeliveries.run(id);
      const removed = deleteWebhook.run(id).changes > 0;
      if (removed && audit !== undefined) auditLog.append(audit({ id }));
      return removed;
    });
  }

  async save(definition: WebhookDefinition, at: Date, audit?: AuditNote<SavedWebhook>): Promise<SavedWebhook> {
    return this.guarded(() => this.saveInTransaction.immediate(definition, at, audit));
  }

  async find(id: WebhookId): Promise<Webhook | undefined> {
    const row = this.selectOne.get(id);
    return row === undefined ? undefined : webhookFromRow(row);
  }

  async list(): Promise<readonly Webhook[]> {
    return this.selectAll.all().map(webhookFromRow);
  }

  async remove(id: WebhookId, audit?: AuditNote<{ readonly id: WebhookId }>): Promise<boolean> {
    return this.guarded(() => this.removeInTransaction.immediate(id, audit));
  }

  private guarded<T>(write: () => T): T {
    return this.health === undefined ? write() : this.health.guard(write);
  }
}
