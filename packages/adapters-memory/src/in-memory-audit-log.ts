import {
  auditEntryMatches,
  compareAuditEntriesNewestFirst,
  type AuditEntry,
  type AuditRecord,
} from '@canteen-meals/domain';
import type { AuditLog, AuditQuery } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryAuditLog implements AuditLog {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async append(records: readonly AuditRecord[]): Promise<void> {
    this.db.appendAudit(records);
  }

  async list(query: AuditQuery): Promise<readonly AuditEntry[]> {
    const { after } = query;
    return this.db.audit
      .filter((entry) => auditEntryMatches(entry, query))
      .filter((entry) => after === undefined || compareAuditEntriesNewestFirst(after, entry) < 0)
      .sort(compareAuditEntriesNewestFirst)
      .slice(0, query.limit);
  }

  async deleteOlderThan(before: Date): Promise<number> {
    const kept = this.db.audit.filter((entry) => entry.at.getTime() >= before.getTime());
    const deleted = this.db.audit.length - kept.length;
    this.db.audit.splice(0, this.db.audit.length, ...kept);
    return deleted;
  }
}
