import type { DeleteExpiredAuditEntries } from '@canteen-meals/domain';

/** Once a day: the trail is kept in days, so a day late is at most a day more. */
export const auditRetentionIntervalMs = 24 * 60 * 60 * 1000;

export interface AuditRetentionJob {
  /** Deletes the entries past the retention now: what the timer calls, and what tests call with a clock they set. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export interface AuditRetentionJobOptions {
  readonly intervalMs?: number;
  readonly onDeleted?: (deleted: number, before: Date) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * The audit trail's retention (AUDIT_RETENTION_DAYS): every `intervalMs` (a day), and once at start, the entries older
 * than the retention are deleted. Every instance runs it: a delete by age twice deletes nothing more. The timer does
 * not keep the process alive; `stop` waits for a run under way, so the database can close after it.
 */
export function startAuditRetentionJob(
  deleteExpired: DeleteExpiredAuditEntries,
  { intervalMs = auditRetentionIntervalMs, onDeleted, onError }: AuditRetentionJobOptions,
): AuditRetentionJob {
  let underWay: Promise<void> = Promise.resolve();
  const tick = () => {
    underWay = underWay.then(async () => {
      try {
        const { deleted, before } = await deleteExpired.execute();
        onDeleted?.(deleted, before);
      } catch (error) {
        onError(error);
      }
    });
    return underWay;
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await underWay;
    },
  };
}
