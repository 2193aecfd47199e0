import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../shared/clock.js';

const dayMs = 24 * 60 * 60 * 1000;

/** How long the trail is kept unless configured otherwise (AUDIT_RETENTION_DAYS). */
export const defaultAuditRetentionDays = 365;

/**
 * The trail's retention: entries older than `retentionDays` days before now are deleted. A daily job runs
 * it; it answers how many went and before which instant.
 */
export class DeleteExpiredAuditEntries {
  constructor(
    private readonly deps: { readonly audit: AuditLog; readonly clock: Clock; readonly retentionDays: number },
  ) {
    if (!Number.isInteger(deps.retentionDays) || deps.retentionDays < 1) {
      throw new RangeError(`the audit retention must be a whole number of days from 1, not ${deps.retentionDays}`);
    }
  }

  async execute(): Promise<{ readonly deleted: number; readonly before: Date }> {
    const before = new Date(this.deps.clock.now().getTime() - this.deps.retentionDays * dayMs);
    return { deleted: await this.deps.audit.deleteOlderThan(before), before };
  }
}
