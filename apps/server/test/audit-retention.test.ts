import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { auditRecordOf, DeleteExpiredAuditEntries } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { startAuditRetentionJob } from '../src/audit/audit-retention-job.js';
import { loadConfig } from '../src/config.js';

const day = 24 * 60 * 60 * 1000;
const by = { actor: 'ada', actorScopes: ['meals:write'], requestId: 'req-1' };
const now = new Date('2026-03-10T03:00:00.000Z');
const daysBefore = (days: number, ms = 0) => new Date(now.getTime() - days * day + ms);

describe('the audit retention job (AUDIT_RETENTION_DAYS)', () => {
  it('deletes at each run the entries older than the retention, to the millisecond, on its injected clock', async () => {
    const { audit } = createInMemoryAdapters();
    const clock = new FixedClock(now);
    await audit.append(
      [daysBefore(30, -1), daysBefore(30), daysBefore(29), daysBefore(0)].map((at) =>
        auditRecordOf(by, at, 'webhook.changed', null, 'webhook ops', {}),
      ),
    );
    const reported: [number, Date][] = [];
    const job = startAuditRetentionJob(new DeleteExpiredAuditEntries({ audit, clock, retentionDays: 30 }), {
      intervalMs: 0,
      onDeleted: (deleted, before) => reported.push([deleted, before]),
      onError: (error) => {
        throw error;
      },
    });
    await job.tick();
    expect(reported).toEqual([[1, daysBefore(30)]]);
    expect((await audit.list({ limit: 10 })).map((entry) => entry.at)).toEqual([
      daysBefore(0),
      daysBefore(29),
      daysBefore(30),
    ]);
    // A day later the entry of exactly 30 days then is 31 days old; the one of 29 days is exactly 30, and stays.
    clock.set(new Date(now.getTime() + day));
    await job.tick();
    expect(reported.at(-1)).toEqual([1, daysBefore(29)]);
    expect(await audit.list({ limit: 10 })).toHaveLength(2);
    await job.stop();
  });

  it('keeps 365 days unless configured, and refuses a retention that is no whole number of days from 1', () => {
    const base = { JWT_SECRET: 'a-secret-of-at-least-thirty-two-bytes!!', DATABASE_URL: 'memory:' };
    expect(loadConfig(base).auditRetentionDays).toBe(365);
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(() => loadConfig({ ...base, AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
