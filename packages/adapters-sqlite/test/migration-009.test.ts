import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const six = 1785391200000; // 2026-07-30T06:00:00Z

describe('migration 009 (feed failures) on a database that has migrations 001 to 008', () => {
  const { open } = legacyFilePerTest(8, (old) => {
    old.exec(`
      UPDATE canteens SET feeds = '[{"name":"full","url":"https://mensa.example/full.xml","schedule":"0 6 * * *"},{"name":"today","url":"https://mensa.example/today.xml","schedule":"0 6 * * *"}]'
        WHERE canteen_id = 'default';
      INSERT INTO feed_states (canteen_id, feed_name, last_attempt_at, last_success_at, http_status, outcome, last_error)
        VALUES ('default', 'full', ${six}, NULL, 503, 'failed', 'HTTP 503'),
               ('default', 'today', ${six}, ${six}, 200, 'imported', NULL);`);
  });

  it('counts a feed whose last attempt failed as failed once (so it is retried soon), the others as never', async () => {
    const db = open();
    const { feedStates } = createSqliteAdapters(db);
    expect((await feedStates.list('default')).map((state) => [state.feedName, state.outcome, state.failures])).toEqual([
      ['full', 'failed', 1],
      ['today', 'imported', 0],
    ]);
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 9').get()).toEqual({
      version: 9,
      name: 'feed-failures',
    });
    expect(() => db.prepare("UPDATE feed_states SET failures = -1 WHERE feed_name = 'full'").run()).toThrow(/CHECK/);
  });
});
